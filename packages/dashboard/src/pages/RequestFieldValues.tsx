import type { AdminFeatureRequest, CustomField } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import { FieldValueInput } from "../components/FieldValueInput.js";
import { changedValues, inputOf, valueText, type ValueInput } from "../field-values.js";
import { errorsAt } from "../form-errors.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

/** A request's custom field values: the ones its board asks for in a form whose Save sends only those changed, then the others as stored. */
export function RequestFieldValues(props: {
  wsId: string;
  request: AdminFeatureRequest;
  fields: readonly CustomField[];
  errors: FieldErrors;
  onErrors: (errors: FieldErrors) => void;
  change: (at: string, work: () => Promise<unknown>) => Promise<boolean>;
}) {
  const r = props.request;
  const { errors } = props;
  const [inputs, setInputs] = useState<Record<string, ValueInput> | null>(null);
  // The fields its board asks for are editable; other stored values (archived fields, another board's) are shown as stored.
  const asked = props.fields.filter((f) => f.appliesTo.includes("feature_request") && (f.boardId === null || f.boardId === r.boardId));
  const stored = new Map(r.fields.map((f) => [f.key, f]));
  const initial = Object.fromEntries(asked.map((f) => [f.key, inputOf(f.type, stored.get(f.key)?.value)]));
  const current = inputs ?? initial;
  const others = r.fields.filter((f) => !asked.some((a) => a.key === f.key));
  const saveFields = async (event: FormEvent) => {
    event.preventDefault();
    const { values, errors: local } = changedValues(asked, initial, current);
    if (Object.keys(local).length > 0) {
      props.onErrors(local);
      return;
    }
    if (Object.keys(values).length === 0) return;
    if (await props.change("fields", () => api("PUT", `/workspaces/${props.wsId}/feature-requests/${r.id}`, { fields: values }))) setInputs(null);
  };
  return (
    <>
      <h3>{t("detail.fields")}</h3>
      {asked.length === 0 ? <p className="hint">{t("detail.noFields")}</p> : null}
      {asked.length === 0 ? null : (
        <form className="settings" onSubmit={(e) => void saveFields(e)} noValidate aria-label={t("detail.fields")}>
          {asked.map((field) => (
            <FieldValueInput
              key={field.id}
              field={field}
              value={current[field.key] ?? inputOf(field.type, undefined)}
              errors={errorsAt(errors, `fields.${field.key}`)}
              onChange={(value) => setInputs({ ...current, [field.key]: value })}
            />
          ))}
          <button type="submit" className="primary">
            {t("detail.saveFields")}
          </button>
        </form>
      )}
      {others.length === 0 ? null : (
        <dl className="metadata" aria-label={t("detail.otherValues")}>
          {others.map((f) => (
            <div key={f.id}>
              <dt>
                {f.label}
                {f.archived ? ` (${t("fields.archived")})` : ""}
              </dt>
              <dd>{valueText(undefined, f.value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </>
  );
}
