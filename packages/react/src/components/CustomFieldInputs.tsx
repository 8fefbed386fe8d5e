import type { CustomField, CustomFieldInput } from "@tidings/client";
import { useId } from "react";
import { useTidings, type CustomFieldsState } from "@tidings/react-core";

/**
 * The label's text with a required mark that screen readers skip: an input says `aria-required`,
 * and a group (which has no such state) names it in words with `spoken`.
 */
function LabelText(props: { field: CustomField; spoken?: boolean }) {
  const { t } = useTidings();
  const { label, required } = props.field;
  if (!required) return <>{label}</>;
  const mark = (
    <span className="td-required" aria-hidden="true">
      {" *"}
    </span>
  );
  if (props.spoken !== true) return <>{label}{mark}</>;
  return (
    <>
      <span aria-hidden="true">
        {label}
        {mark}
      </span>
      <span className="td-visually-hidden">{t("fields.requiredLabel", { label })}</span>
    </>
  );
}

function Field(props: { field: CustomField; state: CustomFieldsState; id: string; disabled: boolean }) {
  const { t } = useTidings();
  const { field, state, id } = props;
  const value = state.values[field.key];
  const error = state.errors[field.key];
  const hint = state.hint(field);
  const ids = { description: `${id}-description`, hint: `${id}-hint`, error: `${id}-error` };
  const describedBy = [field.description ? ids.description : null, hint === undefined ? null : ids.hint, error === undefined ? null : ids.error].filter(Boolean).join(" ") || undefined;
  const common = { "aria-invalid": error !== undefined, "aria-describedby": describedBy, "aria-required": field.required, disabled: props.disabled };
  const set = (next: CustomFieldInput) => state.setValue(field.key, next);
  const notes = (
    <>
      {field.description ? (
        <p id={ids.description} className="td-muted td-small td-field-note">
          {field.description}
        </p>
      ) : null}
      {hint === undefined ? null : (
        <p id={ids.hint} className="td-muted td-small td-field-note">
          {hint}
        </p>
      )}
      {error === undefined ? null : (
        <p id={ids.error} className="td-danger td-small td-field-note">
          {error}
        </p>
      )}
    </>
  );

  if (field.type === "multi_select") {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="td-fieldset td-field" aria-describedby={describedBy} aria-invalid={error !== undefined} disabled={props.disabled}>
        <legend>
          <LabelText field={field} spoken />
        </legend>
        {field.options.map((option) => (
          <label key={option.value} className="td-check">
            <input
              type="checkbox"
              checked={chosen.includes(option.value)}
              onChange={(e) => set(e.target.checked ? [...chosen, option.value] : chosen.filter((v) => v !== option.value))}
            />
            {option.label}
          </label>
        ))}
        {notes}
      </fieldset>
    );
  }
  if (field.type === "checkbox") {
    return (
      <div className="td-field">
        <label className="td-check">
          <input type="checkbox" {...common} checked={value === true} onChange={(e) => set(e.target.checked)} />
          <span>
            <LabelText field={field} />
          </span>
        </label>
        {notes}
      </div>
    );
  }
  const text = typeof value === "string" || typeof value === "number" ? String(value) : "";
  return (
    <div className="td-field td-stack">
      <label htmlFor={id}>
        <LabelText field={field} />
      </label>
      {field.type === "long_text" ? (
        <textarea id={id} className="td-input" rows={3} value={text} {...common} onChange={(e) => set(e.target.value)} />
      ) : field.type === "single_select" ? (
        <select id={id} className="td-input" value={text} {...common} onChange={(e) => set(e.target.value)}>
          <option value="">{t("fields.choose")}</option>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        // Numbers as text: a browser's number input reads "12a" as empty, hiding the mistake.
        <input
          id={id}
          className="td-input"
          value={text}
          inputMode={field.type === "number" ? (field.limits.integer ? "numeric" : "decimal") : undefined}
          {...common}
          onChange={(e) => set(e.target.value)}
        />
      )}
      {notes}
    </div>
  );
}

/**
 * The custom fields of a form (`useProposeRequest().fields`, `useFeedbackComposer().fields`):
 * one input per field by type (a line of text, a text area, a number, a select, checkboxes, a
 * checkbox), with its description, required mark, limits and the problem found before sending or
 * named by the server. Draws nothing when the form asks for no fields.
 *
 * @example
 * ```tsx
 * const composer = useFeedbackComposer();
 * <CustomFieldInputs fields={composer.fields} />
 * ```
 */
export function CustomFieldInputs(props: { fields: CustomFieldsState; disabled?: boolean | undefined }) {
  const base = useId();
  if (props.fields.fields.length === 0) return null;
  return (
    <>
      {props.fields.fields.map((field) => (
        <Field key={field.key} field={field} state={props.fields} id={`${base}-${field.key}`} disabled={props.disabled === true} />
      ))}
    </>
  );
}
