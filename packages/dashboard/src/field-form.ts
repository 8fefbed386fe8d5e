import {
  MAX_FIELD_OPTIONS,
  MAX_LONG_TEXT_LENGTH,
  MAX_TEXT_LENGTH,
  textLength,
  type CreateCustomFieldBody,
  type CustomField,
  type CustomFieldForm,
  type CustomFieldLimits,
  type CustomFieldOption,
  type CustomFieldType,
  type CustomFieldValue,
  type UpdateCustomFieldBody,
} from "@tidings/protocol";
import { t } from "./i18n/t.js";
import type { FieldErrors } from "./settings-form.js";

/** The definition form's state: numbers stay strings until sent, options are one per line. */
export interface FieldDefinitionForm {
  label: string;
  key: string;
  description: string;
  type: CustomFieldType;
  required: boolean;
  appliesTo: CustomFieldForm[];
  /** A board id, or "" for every board. */
  boardId: string;
  options: string;
  maxLength: string;
  min: string;
  max: string;
  integer: boolean;
  maxSelected: string;
}

/** The form of a new field. */
export const EMPTY_FIELD_FORM: FieldDefinitionForm = {
  label: "",
  key: "",
  description: "",
  type: "text",
  required: false,
  appliesTo: ["feature_request"],
  boardId: "",
  options: "",
  maxLength: "",
  min: "",
  max: "",
  integer: false,
  maxSelected: "",
};

const isSelect = (type: CustomFieldType) => type === "single_select" || type === "multi_select";
const KEY = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;
const optional = (n: number | undefined) => (n === undefined ? "" : String(n));

/** One option per line: `value | label`, or the value alone when it reads well as its label. */
export function optionsText(options: readonly CustomFieldOption[]): string {
  return options.map((o) => (o.value === o.label ? o.value : `${o.value} | ${o.label}`)).join("\n");
}

/** The options of the form's lines (blank lines skipped). */
export function parseOptions(text: string): CustomFieldOption[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const bar = line.indexOf("|");
      if (bar < 0) return { value: line, label: line };
      return { value: line.slice(0, bar).trim(), label: line.slice(bar + 1).trim() };
    });
}

/** The form for a field as the server describes it. */
export function formFromField(field: CustomField): FieldDefinitionForm {
  return {
    label: field.label,
    key: field.key,
    description: field.description,
    type: field.type,
    required: field.required,
    appliesTo: [...field.appliesTo],
    boardId: field.boardId ?? "",
    options: optionsText(field.options),
    maxLength: optional(field.limits.maxLength),
    min: optional(field.limits.min),
    max: optional(field.limits.max),
    integer: field.limits.integer ?? false,
    maxSelected: optional(field.limits.maxSelected),
  };
}

/** A number typed in the form, or undefined when left blank, or NaN when it is not one. */
function numberOf(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === "" ? undefined : Number(trimmed);
}

function limitsOf(form: FieldDefinitionForm): CustomFieldLimits {
  const limits: CustomFieldLimits = {};
  const set = (name: "maxLength" | "min" | "max" | "maxSelected", text: string) => {
    const n = numberOf(text);
    if (n !== undefined) limits[name] = n;
  };
  if (form.type === "text" || form.type === "long_text") set("maxLength", form.maxLength);
  if (form.type === "number") {
    set("min", form.min);
    set("max", form.max);
    limits.integer = form.integer;
  }
  if (form.type === "multi_select") set("maxSelected", form.maxSelected);
  return limits;
}

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

/** The body that creates a field (a valid form: see {@link validateFieldDefinition}); a blank key is derived by the server. */
export function createFieldBody(form: FieldDefinitionForm): CreateCustomFieldBody {
  const key = form.key.trim();
  return { ...updateFieldBody(form), label: form.label.trim(), type: form.type, appliesTo: form.appliesTo, ...(key === "" ? {} : { key }) };
}

/** The body that patches a field: everything but its type and key, which never change. */
export function updateFieldBody(form: FieldDefinitionForm): UpdateCustomFieldBody & { label: string; appliesTo: CustomFieldForm[] } {
  return {
    label: form.label.trim(),
    description: form.description.trim(),
    required: form.required,
    appliesTo: form.appliesTo,
    boardId: form.boardId === "" ? null : form.boardId,
    options: isSelect(form.type) ? parseOptions(form.options) : [],
    limits: limitsOf(form),
  };
}

/** What an input of a value holds: text (text, long text, number, single select), picked options, or a tick. */
export type ValueInput = string | readonly string[] | boolean;

/** The input state for a stored value of a field of `type` (nothing stored: empty). */
export function inputOf(type: CustomFieldType, value: CustomFieldValue | undefined): ValueInput {
  if (type === "checkbox") return value === true;
  if (type === "multi_select") return Array.isArray(value) ? value : [];
  if (value === undefined || Array.isArray(value)) return "";
  return String(value);
}

/** The value an input sends: `null` clears it; a number that does not read as one is a problem. */
export function valueOfInput(type: CustomFieldType, input: ValueInput): { value: CustomFieldValue | null } | { problem: string } {
  if (type === "checkbox") return { value: input === true };
  if (type === "multi_select") return { value: Array.isArray(input) && input.length > 0 ? [...(input as readonly string[])] : null };
  const text = typeof input === "string" ? input : "";
  if (text.trim() === "") return { value: null };
  if (type === "number") {
    const n = Number(text.trim());
    return Number.isFinite(n) ? { value: n } : { problem: t("validation.number") };
  }
  return { value: text };
}

/**
 * The `fields` of a request edit: only the values changed since the record was loaded, so a value
 * stored before its field's limits changed is not sent back to be refused. Problems are keyed
 * `fields.<key>`, as the server names them.
 *
 * @example
 * ```ts
 * changedValues([{ key: "seats", type: "number" }], { seats: "12" }, { seats: "" }); // { values: { seats: null }, errors: {} }
 * ```
 */
export function changedValues(
  fields: readonly Pick<CustomField, "key" | "type">[],
  initial: Readonly<Record<string, ValueInput>>,
  current: Readonly<Record<string, ValueInput>>,
): { values: Record<string, CustomFieldValue | null>; errors: FieldErrors } {
  const values: Record<string, CustomFieldValue | null> = {};
  const errors: FieldErrors = {};
  for (const field of fields) {
    const now = current[field.key] ?? inputOf(field.type, undefined);
    if (JSON.stringify(now) === JSON.stringify(initial[field.key] ?? inputOf(field.type, undefined))) continue;
    const read = valueOfInput(field.type, now);
    if ("problem" in read) errors[`fields.${field.key}`] = [read.problem];
    else values[field.key] = read.value;
  }
  return { values, errors };
}

/** A stored value as text: options by their labels, ticks as yes or no. */
export function valueText(field: Pick<CustomField, "type" | "options"> | undefined, value: CustomFieldValue): string {
  const label = (v: string) => field?.options.find((o) => o.value === v)?.label ?? v;
  if (typeof value === "boolean") return value ? t("common.yes") : t("common.no");
  if (Array.isArray(value)) return value.map(label).join(", ");
  return typeof value === "string" ? label(value) : String(value);
}
