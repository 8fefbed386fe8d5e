import type { CustomField, CustomFieldType, CustomFieldValue } from "@tidings/protocol";
import { t } from "./i18n/t.js";
import type { FieldErrors } from "./settings-form.js";

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
