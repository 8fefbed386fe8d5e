import type { CreateTagBody, Tag } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { choices, Select } from "../components/Select.js";
import { TagChip } from "../components/TagChip.js";
import { useAction } from "../components/useAction.js";
import { useEditorForm } from "../components/useEditorForm.js";
import { ConfirmButton, describedBy, ErrorBanner, Field, Notice, SubmitButtons, useLoad } from "../components/ui.js";
import { errorsAt } from "../form-errors.js";
import { t } from "../i18n/t.js";
import { EMPTY_TAG_FORM, formFromTag, tagBody, validateTag, type TagForm } from "../tag-form.js";

function TagEditor(props: { idPrefix: string; initial: TagForm; submitLabel: string; onSubmit: (body: CreateTagBody) => Promise<void>; onCancel?: () => void }) {
  const { form, update, errors, failure, onSubmit } = useEditorForm({
    initial: props.initial,
    validate: validateTag,
    save: (draft) => props.onSubmit(tagBody(draft)),
    byCode: { slug_taken: "slug" },
    reset: props.onCancel === undefined,
  });
  const id = (name: string) => `${props.idPrefix}-${name}`;
  const err = (path: string) => errorsAt(errors, path);
  return (
    <form className="inline-form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={props.submitLabel}>
      <Field id={id("name")} label={t("tags.name")} errors={err("name")}>
        <input id={id("name")} value={form.name} onChange={(e) => update({ name: e.target.value })} {...describedBy(id("name"), err("name"))} />
      </Field>
      <Field id={id("slug")} label={t("tags.slug")} errors={err("slug")}>
        <input id={id("slug")} value={form.slug} placeholder={t("organize.slugPlaceholder")} onChange={(e) => update({ slug: e.target.value })} {...describedBy(id("slug"), err("slug"))} />
      </Field>
      <Field id={id("color")} label={t("tags.color")} errors={err("color")}>
        <span className="color-input">
          <input id={id("color")} value={form.color} placeholder="#4f46e5" size={9} onChange={(e) => update({ color: e.target.value })} {...describedBy(id("color"), err("color"))} />
          <input type="color" aria-label={t("tags.pickColor")} value={/^#[0-9a-fA-F]{6}$/.test(form.color) ? form.color : "#94a3b8"} onChange={(e) => update({ color: e.target.value })} />
        </span>
      </Field>
      <Field id={id("visibility")} label={t("tags.visibility")} errors={err("visibility")}>
        <Select
          id={id("visibility")}
          value={form.visibility}
          choices={choices(["public", "team"] as const, (v) => t(`tags.visibility.${v}`))}
          onChange={(visibility) => update({ visibility: visibility as TagForm["visibility"] })}
        />
      </Field>
      <SubmitButtons submitLabel={props.submitLabel} onCancel={props.onCancel} />
      <ErrorBanner error={failure} />
    </form>
  );
}

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
          <li key={tag.id} className="row" data-testid="tag-row">
            {editing === tag.id ? (
              <div className="row-main">
                <TagEditor
                  idPrefix={`tag-${tag.id}`}
                  initial={formFromTag(tag)}
                  submitLabel={t("common.save")}
                  onCancel={() => setEditing(null)}
                  onSubmit={async (body) => {
                    await api("PATCH", `${base}/tags/${tag.id}`, body);
                    setEditing(null);
                    saved();
                  }}
                />
              </div>
            ) : (
              <>
                <div className="row-main">
                  <span>
                    <TagChip tag={tag} />
                  </span>
                  <small>
                    <code>{tag.slug}</code> · {t(`tags.visibility.${tag.visibility}`)} · {t("boards.requests", { count: tag.requestCount })}
                  </small>
                </div>
                {props.canConfigure ? (
                  <div className="row-actions">
                    <button type="button" aria-label={t("tags.edit", { name: tag.name })} onClick={() => setEditing(tag.id)}>
                      {t("common.edit")}
                    </button>
                    <ConfirmButton label={t("tags.delete", { name: tag.name })} question={t("tags.confirmDelete", { name: tag.name })} onConfirm={() => void action.run(() => api("DELETE", `${base}/tags/${tag.id}`), t("tags.deleted"))}>
                      {t("common.delete")}
                    </ConfirmButton>
                  </div>
                ) : null}
              </>
            )}
          </li>
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
