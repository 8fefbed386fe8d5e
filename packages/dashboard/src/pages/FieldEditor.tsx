import { CUSTOM_FIELD_FORMS, CUSTOM_FIELD_TYPES, type Board, type CustomFieldForm } from "@tidings/protocol";
import type { FieldDefinitionForm } from "../field-form.js";
import { validateFieldDefinition } from "../field-validation.js";
import { choices, Select } from "../components/Select.js";
import { useEditorForm } from "../components/useEditorForm.js";
import { describedBy, Field, FormActions } from "../components/ui.js";
import { errorsAt } from "../form-errors.js";
import { t } from "../i18n/t.js";

/** Where a refusal that names no body field belongs on the field form. */
const FIELD_ERROR_FIELDS = { slug_taken: "key", board_not_found: "boardId" };

export function FieldEditor(props: {
  idPrefix: string;
  initial: FieldDefinitionForm;
  creating: boolean;
  boards: readonly Board[];
  submitLabel: string;
  onSubmit: (form: FieldDefinitionForm) => Promise<void>;
  onCancel?: () => void;
}) {
  const { form, update, errors, failure, onSubmit } = useEditorForm({
    initial: props.initial,
    validate: (draft: FieldDefinitionForm) => validateFieldDefinition(draft, props.creating),
    save: props.onSubmit,
    byCode: FIELD_ERROR_FIELDS,
    reset: props.creating,
  });
  const id = (name: string) => `${props.idPrefix}-${name}`;
  const err = (path: string) => errorsAt(errors, path, (i) => t("fields.optionN", { n: i + 1 }));
  const text = (name: "label" | "key" | "maxLength" | "min" | "max" | "maxSelected", path: string, label: string, extra: { disabled?: boolean; inputMode?: "numeric" | "decimal"; hint?: string } = {}) => (
    <Field id={id(name)} label={label} errors={err(path)} hint={extra.hint}>
      <input
        id={id(name)}
        value={form[name]}
        disabled={extra.disabled}
        inputMode={extra.inputMode}
        onChange={(e) => update({ [name]: e.target.value })}
        {...describedBy(id(name), err(path))}
      />
    </Field>
  );
  const toggleForm = (which: CustomFieldForm, on: boolean) => update({ appliesTo: on ? [...form.appliesTo, which] : form.appliesTo.filter((f) => f !== which) });
  const select = form.type === "single_select" || form.type === "multi_select";

  return (
    <form className="settings" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={props.submitLabel}>
      {text("label", "label", t("fields.label"))}
      {text("key", "key", t("fields.key"), { disabled: !props.creating, hint: props.creating ? t("fields.keyHint") : t("fields.keyFixed") })}
      <Field id={id("description")} label={t("fields.description")} errors={err("description")}>
        <textarea id={id("description")} rows={2} value={form.description} onChange={(e) => update({ description: e.target.value })} {...describedBy(id("description"), err("description"))} />
      </Field>
      <Field id={id("type")} label={t("fields.type")} errors={err("type")} hint={props.creating ? undefined : t("fields.typeFixed")}>
        <Select
          id={id("type")}
          value={form.type}
          disabled={!props.creating}
          choices={choices(CUSTOM_FIELD_TYPES, (type) => t(`fields.type.${type}`))}
          onChange={(type) => update({ type: type as FieldDefinitionForm["type"] })}
        />
      </Field>
      <label className="check" htmlFor={id("required")}>
        <input id={id("required")} type="checkbox" checked={form.required} onChange={(e) => update({ required: e.target.checked })} /> {t("fields.required")}
      </label>
      <fieldset aria-describedby={err("appliesTo") === undefined ? undefined : id("appliesTo-error")}>
        <legend>{t("fields.appliesTo")}</legend>
        {CUSTOM_FIELD_FORMS.map((which) => (
          <label key={which} className="check" htmlFor={id(`form-${which}`)}>
            <input id={id(`form-${which}`)} type="checkbox" checked={form.appliesTo.includes(which)} onChange={(e) => toggleForm(which, e.target.checked)} /> {t(`fields.form.${which}`)}
          </label>
        ))}
        {(err("appliesTo") ?? []).map((message) => (
          <small key={message} className="field-error" id={id("appliesTo-error")} role="alert">
            {message}
          </small>
        ))}
      </fieldset>
      <Field id={id("board")} label={t("fields.board")} errors={err("boardId")} hint={t("fields.boardHint")}>
        <Select
          id={id("board")}
          value={form.boardId}
          choices={[{ value: "", label: t("fields.everyBoard") }, ...props.boards.map((b) => ({ value: b.id, label: b.name }))]}
          onChange={(boardId) => update({ boardId })}
          {...describedBy(id("board"), err("boardId"))}
        />
      </Field>
      {select ? (
        <Field id={id("options")} label={t("fields.options")} errors={err("options")} hint={t("fields.optionsHint")}>
          <textarea id={id("options")} rows={4} value={form.options} onChange={(e) => update({ options: e.target.value })} {...describedBy(id("options"), err("options"))} />
        </Field>
      ) : null}
      {form.type === "text" || form.type === "long_text" ? text("maxLength", "limits.maxLength", t("fields.maxLength"), { inputMode: "numeric" }) : null}
      {form.type === "number" ? (
        <>
          {text("min", "limits.min", t("fields.min"), { inputMode: "decimal" })}
          {text("max", "limits.max", t("fields.max"), { inputMode: "decimal" })}
          <label className="check" htmlFor={id("integer")}>
            <input id={id("integer")} type="checkbox" checked={form.integer} onChange={(e) => update({ integer: e.target.checked })} /> {t("fields.integer")}
          </label>
        </>
      ) : null}
      {form.type === "multi_select" ? text("maxSelected", "limits.maxSelected", t("fields.maxSelected"), { inputMode: "numeric" }) : null}
      <FormActions failure={failure} submitLabel={props.submitLabel} onCancel={props.onCancel} />
    </form>
  );
}
