import type { Board, CustomField } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { createFieldBody, EMPTY_FIELD_FORM } from "../field-form.js";
import { ListStatus } from "../components/ListStatus.js";
import { useAction } from "../components/useAction.js";
import { ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { FieldEditor } from "./FieldEditor.js";
import { FieldRow } from "./FieldRow.js";

/** The custom fields of an app's forms: add, edit, reorder, archive and restore. */
export function CustomFieldsSection(props: { wsId: string; appId: string; canConfigure: boolean; boards: readonly Board[] }) {
  const base = `/workspaces/${props.wsId}`;
  const [archived, setArchived] = useState(false);
  const fields = useLoad(() => api<{ fields: CustomField[] }>("GET", `${base}/apps/${props.appId}/fields${archived ? "?includeArchived=true" : ""}`), [props.wsId, props.appId, archived]);
  const [editing, setEditing] = useState<string | null>(null);
  const action = useAction(fields.reload);
  const { failure, notice, setNotice } = action;
  const list = fields.data?.fields ?? [];
  const active = list.filter((f) => !f.archived);
  const reorder = (index: number, delta: number) => {
    const ids = active.map((f) => f.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + delta, 0, moved!);
    void action.run(() => api("POST", `${base}/apps/${props.appId}/fields/reorder`, { fieldIds: ids }));
  };
  const saved = () => {
    setNotice(t("common.saved"));
    fields.reload();
  };

  return (
    <section aria-labelledby="fields-title">
      <h2 id="fields-title">{t("fields.title")}</h2>
      <p className="hint">{t("fields.intro")}</p>
      <label className="check">
        <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} /> {t("fields.showArchived")}
      </label>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={fields.error ?? failure} onRetry={fields.reload} />
      <ListStatus list={fields} count={list.length} empty={t("fields.empty")} showLoading />
      <ol className="rows" aria-label={t("fields.title")}>
        {list.map((field) => (
          <FieldRow
            key={field.id}
            base={base}
            field={field}
            index={active.indexOf(field)}
            activeCount={active.length}
            editing={editing === field.id}
            boards={props.boards}
            canConfigure={props.canConfigure}
            onEditing={setEditing}
            onSaved={saved}
            onReorder={reorder}
            run={action.run}
          />
        ))}
      </ol>
      {props.canConfigure ? (
        <>
          <h3>{t("fields.add")}</h3>
          <FieldEditor
            idPrefix="new-field"
            initial={EMPTY_FIELD_FORM}
            creating
            boards={props.boards}
            submitLabel={t("fields.add")}
            onSubmit={async (form) => {
              await api("POST", `${base}/apps/${props.appId}/fields`, createFieldBody(form));
              saved();
            }}
          />
        </>
      ) : null}
    </section>
  );
}
