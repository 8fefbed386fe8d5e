import type { AppVersion } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { useAction } from "../components/useAction.js";
import { ErrorBanner, Notice, Pager, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { VersionForm } from "./VersionForm.js";
import { VersionRow } from "./VersionRow.js";

const PAGE = 20;

/** Release versions of an app: create, edit, release or unrelease, delete. */
export function Versions(props: { wsId: string; appId: string; canConfigure: boolean }) {
  const list = useLoad(() => api<{ versions: AppVersion[] }>("GET", `/workspaces/${props.wsId}/apps/${props.appId}/versions`), [props.wsId, props.appId]);
  const [editing, setEditing] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);
  const action = useAction(list.reload);
  const { failure, notice, setNotice } = action;
  const run = (work: () => Promise<unknown>) => action.run(work, t("common.saved"));
  const versions = list.data?.versions ?? [];
  const saved = () => {
    setNotice(t("common.saved"));
    list.reload();
  };

  return (
    <section aria-labelledby="versions-title">
      <h1 id="versions-title">{t("versions.title")}</h1>
      {props.canConfigure ? (
        <VersionForm
          idPrefix="new-version"
          submitLabel={t("versions.create")}
          onSubmit={async (label, description) => {
            await api("POST", `/workspaces/${props.wsId}/apps/${props.appId}/versions`, { label, description });
            saved();
          }}
        />
      ) : null}
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
      <ListStatus list={list} count={versions.length} empty={t("versions.empty")} showLoading />
      <ul className="rows">
        {versions.slice(offset, offset + PAGE).map((v) => (
          <VersionRow key={v.id} wsId={props.wsId} version={v} editing={editing === v.id} canConfigure={props.canConfigure} onEditing={setEditing} onSaved={saved} run={run} />
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} total={versions.length} onChange={setOffset} />
    </section>
  );
}
