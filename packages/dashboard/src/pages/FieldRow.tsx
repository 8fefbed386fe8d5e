import type { Board, CustomField } from "@tidings/protocol";
import { api } from "../api.js";
import { formFromField, updateFieldBody } from "../field-form.js";
import { ConfirmButton, MoveButtons } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { FieldEditor } from "./FieldEditor.js";

/** One custom field's line: what it is and its actions, or its editor while it is being edited. */
export function FieldRow(props: {
  base: string;
  field: CustomField;
  /** Its place among the fields not archived (-1 when archived). */
  index: number;
  activeCount: number;
  editing: boolean;
  boards: readonly Board[];
  canConfigure: boolean;
  onEditing: (fieldId: string | null) => void;
  onSaved: () => void;
  onReorder: (index: number, delta: number) => void;
  run: (work: () => Promise<unknown>, message?: string) => Promise<boolean>;
}) {
  const { field, index } = props;
  const boardName = (boardId: string | null) => (boardId === null ? t("fields.everyBoard") : (props.boards.find((b) => b.id === boardId)?.name ?? boardId));
  return (
    <li className={field.archived ? "row muted" : "row"} data-testid="field-row">
      {props.editing ? (
        <div className="row-main">
          <FieldEditor
            idPrefix={`field-${field.id}`}
            initial={formFromField(field)}
            creating={false}
            boards={props.boards}
            submitLabel={t("common.save")}
            onCancel={() => props.onEditing(null)}
            onSubmit={async (form) => {
              await api("PATCH", `${props.base}/fields/${field.id}`, updateFieldBody(form));
              props.onEditing(null);
              props.onSaved();
            }}
          />
        </div>
      ) : (
        <>
          <div className="row-main">
            <strong>
              {field.label} {field.archived ? <span className="badge">{t("fields.archived")}</span> : null}
              {field.required ? <span className="badge">{t("fields.requiredBadge")}</span> : null}
            </strong>
            <small>
              <code>{field.key}</code> · {t(`fields.type.${field.type}`)} · {field.appliesTo.map((f) => t(`fields.form.${f}`)).join(", ")} · {boardName(field.boardId)}
            </small>
            {field.options.length === 0 ? null : <p>{field.options.map((o) => o.label).join(", ")}</p>}
          </div>
          {props.canConfigure ? (
            <div className="row-actions">
              {field.archived ? (
                <button type="button" onClick={() => void props.run(() => api("PATCH", `${props.base}/fields/${field.id}`, { archived: false }), t("common.saved"))}>
                  {t("fields.restore")}
                </button>
              ) : (
                <>
                  <MoveButtons upLabel={t("boards.moveUp", { name: field.label })} downLabel={t("boards.moveDown", { name: field.label })} index={index} count={props.activeCount} onMove={props.onReorder} />
                  <button type="button" aria-label={t("fields.edit", { name: field.label })} onClick={() => props.onEditing(field.id)}>
                    {t("common.edit")}
                  </button>
                  <ConfirmButton label={t("fields.archive", { name: field.label })} question={t("fields.confirmArchive", { name: field.label })} onConfirm={() => void props.run(() => api("DELETE", `${props.base}/fields/${field.id}`), t("fields.archivedNotice"))}>
                    {t("fields.archiveButton")}
                  </ConfirmButton>
                </>
              )}
            </div>
          ) : null}
        </>
      )}
    </li>
  );
}
