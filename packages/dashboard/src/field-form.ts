import type { CreateCustomFieldBody, CustomField, CustomFieldForm, CustomFieldLimits, CustomFieldOption, CustomFieldType, UpdateCustomFieldBody } from "@tidings/protocol";

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

/** Whether a field of `type` picks from options. */
export const isSelect = (type: CustomFieldType) => type === "single_select" || type === "multi_select";
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

/** The limits the form sets for its type (numbers as typed: NaN when one does not read as one). */
export function limitsOf(form: FieldDefinitionForm): CustomFieldLimits {
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
