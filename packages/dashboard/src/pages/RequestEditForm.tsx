import { textLength } from "@tidings/protocol";
import type { FormEvent } from "react";
import { describedBy, Field } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

/** The title and description of a request as edited. */
export interface RequestDraft {
  title: string;
  description: string;
}

/** Checks the edit form of a request before sending. */
export function validateRequest(title: string, description: string): FieldErrors {
  const errors: FieldErrors = {};
  if (title.trim() === "") errors.title = [t("validation.required")];
  else if (textLength(title.trim()) > 200) errors.title = [t("validation.tooLong", { max: 200 })];
  if (textLength(description) > 20_000) errors.description = [t("validation.tooLong", { max: 20_000 })];
  return errors;
}

/** The edit form of a request: its title and description, saved, and deleting it when allowed. */
export function RequestEditForm(props: { draft: RequestDraft; errors: FieldErrors; canDelete: boolean; onChange: (draft: RequestDraft) => void; onSave: (event: FormEvent) => void; onRemove: () => void }) {
  const { draft: current, errors } = props;
  return (
    <>
      <h2>{t("detail.edit")}</h2>
      <form className="settings" onSubmit={props.onSave} noValidate aria-label={t("detail.edit")}>
        <Field id="fr-title" label={t("detail.title")} errors={errors.title}>
          <input id="fr-title" value={current.title} onChange={(e) => props.onChange({ ...current, title: e.target.value })} {...describedBy("fr-title", errors.title)} />
        </Field>
        <Field id="fr-description" label={t("detail.description")} errors={errors.description}>
          <textarea id="fr-description" rows={5} value={current.description} onChange={(e) => props.onChange({ ...current, description: e.target.value })} {...describedBy("fr-description", errors.description)} />
        </Field>
        <div className="inline-form">
          <button type="submit" className="primary">
            {t("common.save")}
          </button>
          {props.canDelete ? (
            <button type="button" className="danger" onClick={props.onRemove}>
              {t("detail.delete")}
            </button>
          ) : null}
        </div>
      </form>
    </>
  );
}
