import type { CustomField } from "@tidings/protocol";
import type { ValueInput } from "../field-values.js";
import { t } from "../i18n/t.js";
import { Select } from "./Select.js";
import { describedBy, Field } from "./ui.js";

/** The input of one custom field's value, fitted to its type, with its label, description and errors. */
export function FieldValueInput(props: { field: CustomField; value: ValueInput; errors: readonly string[] | undefined; onChange: (value: ValueInput) => void }) {
  const { field } = props;
  const id = `cf-${field.key}`;
  const label = field.required ? t("fields.requiredLabel", { label: field.label }) : field.label;
  const hint = field.description === "" ? undefined : field.description;
  const aria = describedBy(id, props.errors);
  const errorLines = (props.errors ?? []).map((message) => (
    <small key={message} className="field-error" id={`${id}-error`} role="alert">
      {message}
    </small>
  ));

  if (field.type === "checkbox") {
    return (
      <div className={props.errors === undefined ? "field" : "field field-invalid"}>
        <label className="check" htmlFor={id}>
          <input id={id} type="checkbox" checked={props.value === true} onChange={(e) => props.onChange(e.target.checked)} {...aria} /> {label}
        </label>
        {hint === undefined ? null : <small>{hint}</small>}
        {errorLines}
      </div>
    );
  }
  if (field.type === "multi_select") {
    const picked = Array.isArray(props.value) ? (props.value as readonly string[]) : [];
    // Options removed from the field since still show, so a stored pick can be seen and unticked.
    const values = [...field.options.map((o) => o.value), ...picked.filter((v) => !field.options.some((o) => o.value === v))];
    return (
      <fieldset className={props.errors === undefined ? undefined : "field-invalid"} {...aria}>
        <legend>{label}</legend>
        {hint === undefined ? null : <small className="hint">{hint}</small>}
        {values.map((value) => (
          <label key={value} className="check" htmlFor={`${id}-${value}`}>
            <input
              id={`${id}-${value}`}
              type="checkbox"
              checked={picked.includes(value)}
              onChange={(e) => props.onChange(e.target.checked ? [...picked, value] : picked.filter((v) => v !== value))}
            />{" "}
            {field.options.find((o) => o.value === value)?.label ?? value}
          </label>
        ))}
        {errorLines}
      </fieldset>
    );
  }
  const text = typeof props.value === "string" ? props.value : "";
  let input;
  if (field.type === "single_select") {
    const stale = text !== "" && !field.options.some((o) => o.value === text) ? [{ value: text, label: text }] : [];
    input = <Select id={id} value={text} choices={[{ value: "", label: "—" }, ...field.options.map((o) => ({ value: o.value, label: o.label })), ...stale]} onChange={props.onChange} {...aria} />;
  } else if (field.type === "long_text") {
    input = <textarea id={id} rows={3} value={text} onChange={(e) => props.onChange(e.target.value)} {...aria} />;
  } else {
    input = <input id={id} value={text} inputMode={field.type === "number" ? "decimal" : undefined} onChange={(e) => props.onChange(e.target.value)} {...aria} />;
  }
  return (
    <Field id={id} label={label} errors={props.errors} hint={hint}>
      {input}
    </Field>
  );
}
