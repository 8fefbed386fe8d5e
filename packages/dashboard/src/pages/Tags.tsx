import type { Tag } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { useAction } from "../components/useAction.js";
import { ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { EMPTY_TAG_FORM } from "../tag-form.js";
import { TagEditor } from "./TagEditor.js";
import { TagRow } from "./TagRow.js";

/** An app's tags: add, rename, recolour, public or team-only, delete. */
export function TagsSection(props: { wsId: string; appId: string; canConfigure: boolean }) {
  const base = `/workspaces/${props.wsId}`;
  const tags = useLoad(() => api<{ tags: Tag[] }>("GET", `${base}/apps/${props.appId}/tags`), [props.wsId, props.appId]);
  const [editing, setEditing] = useState<string | null>(null);
  const action = useAction(tags.reload);
  const { failure, notice, setNotice } = action;
  const list = tags.data?.tags ?? [];
  const saved = () => {
    setNotice(t("common.saved"));
    tags.reload();
  };

  return (
    <section aria-labelledby="tags-title">
      <h2 id="tags-title">{t("tags.title")}</h2>
      <p className="hint">{t("tags.intro")}</p>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={tags.error ?? failure} onRetry={tags.reload} />
      <ListStatus list={tags} count={list.length} empty={t("tags.empty")} showLoading />
      <ul className="rows" aria-label={t("tags.title")}>
        {list.map((tag) => (
          <TagRow key={tag.id} base={base} tag={tag} editing={editing === tag.id} canConfigure={props.canConfigure} onEditing={setEditing} onSaved={saved} run={action.run} />
        ))}
      </ul>
      {props.canConfigure ? (
        <>
          <h3>{t("tags.add")}</h3>
          <TagEditor
            idPrefix="new-tag"
            initial={EMPTY_TAG_FORM}
            submitLabel={t("tags.add")}
            onSubmit={async (body) => {
              await api("POST", `${base}/apps/${props.appId}/tags`, body);
              saved();
            }}
          />
        </>
      ) : null}
    </section>
  );
}
