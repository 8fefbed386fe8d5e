import { MAX_FIELD_OPTIONS, MAX_LONG_TEXT_LENGTH, MAX_TEXT_LENGTH, textLength } from "@tidings/protocol";
import { isSelect, limitsOf, parseOptions, type FieldDefinitionForm } from "./field-form.js";
import { t } from "./i18n/t.js";
import type { FieldErrors } from "./settings-form.js";

const KEY = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/**
 * The checks the server makes on a definition, keyed by the body paths it would name (`label`,
 * `key`, `appliesTo`, `options`, `limits.<name>`); an empty object means the form may be sent.
 * The key is checked only when creating: it never changes.
 *
 * @example
 * ```ts
 * validateFieldDefinition({ ...EMPTY_FIELD_FORM, label: "Plan", type: "single_select" }, true); // { options: ["Add at least one option."] }
 * ```
 */
export function validateFieldDefinition(form: FieldDefinitionForm, creating: boolean): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] = [...(errors[field] ?? []), message]);
  if (form.label.trim() === "") add("label", t("validation.required"));
  else if (textLength(form.label.trim()) > 80) add("label", t("validation.tooLong", { max: 80 }));
  if (creating && form.key.trim() !== "" && (!KEY.test(form.key.trim()) || form.key.trim().length > 64)) add("key", t("validation.fieldKey"));
  if (textLength(form.description) > 500) add("description", t("validation.tooLong", { max: 500 }));
  if (form.appliesTo.length === 0) add("appliesTo", t("validation.chooseForm"));
  else if (form.boardId !== "" && form.appliesTo.includes("feedback")) add("appliesTo", t("validation.boardFeedback"));
  if (isSelect(form.type)) {
    const options = parseOptions(form.options);
    if (options.length === 0) add("options", t("validation.options"));
    if (options.length > MAX_FIELD_OPTIONS) add("options", t("validation.tooMany", { max: MAX_FIELD_OPTIONS }));
    const seen = new Set<string>();
    for (const [i, option] of options.entries()) {
      if (option.value === "" || option.label === "" || textLength(option.value) > 100 || textLength(option.label) > 100) add("options", t("validation.optionLine", { line: i + 1 }));
      else if (seen.has(option.value)) add("options", t("validation.optionTwice", { value: option.value }));
      seen.add(option.value);
    }
  }
  const limits = limitsOf(form);
  const cap = form.type === "text" ? MAX_TEXT_LENGTH : MAX_LONG_TEXT_LENGTH;
  if (limits.maxLength !== undefined && (!Number.isInteger(limits.maxLength) || limits.maxLength < 1 || limits.maxLength > cap)) add("limits.maxLength", t("validation.wholeNumber", { min: 1, max: cap }));
  for (const name of ["min", "max"] as const) {
    const n = limits[name];
    if (n !== undefined && !Number.isFinite(n)) add(`limits.${name}`, t("validation.number"));
  }
  if (limits.min !== undefined && limits.max !== undefined && limits.min > limits.max) add("limits.max", t("validation.maxBelowMin"));
  if (limits.maxSelected !== undefined && (!Number.isInteger(limits.maxSelected) || limits.maxSelected < 1 || limits.maxSelected > MAX_FIELD_OPTIONS)) {
    add("limits.maxSelected", t("validation.wholeNumber", { min: 1, max: MAX_FIELD_OPTIONS }));
  }
  return errors;
}
