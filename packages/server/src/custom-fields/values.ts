import { dropLoneSurrogates, textLength, type CustomField, type CustomFieldValue } from "@tidings/protocol";
import { fieldProblems } from "./shape.js";

/** Values as a request or submission stores them: by field id. */
export type StoredFieldValues = Record<string, CustomFieldValue>;

/** What checking a value needs of its definition. */
export type FieldDefinition = Pick<CustomField, "id" | "key" | "type" | "required" | "options" | "limits">;

type Outcome = { value: CustomFieldValue } | { absent: true } | { problem: string };

const ABSENT: Outcome = { absent: true };

function text(definition: FieldDefinition, raw: unknown): Outcome {
  if (typeof raw !== "string") return { problem: "Must be a string" };
  // A lone surrogate has no UTF-8 form, and PostgreSQL's jsonb (the console filter) refuses it.
  const value = dropLoneSurrogates(raw).trim();
  if (value === "") return ABSENT;
  if (definition.type === "text" && /[\r\n]/.test(value)) return { problem: "Must be a single line" };
  const max = definition.limits.maxLength;
  if (max !== undefined && textLength(value) > max) return { problem: `Must be at most ${max} characters` };
  return { value };
}

function number(definition: FieldDefinition, raw: unknown): Outcome {
  if (typeof raw !== "number" || !Number.isFinite(raw)) return { problem: "Must be a number" };
  const { min, max, integer } = definition.limits;
  if (integer === true && !Number.isSafeInteger(raw)) return { problem: "Must be a whole number" };
  if (min !== undefined && raw < min) return { problem: `Must be at least ${min}` };
  if (max !== undefined && raw > max) return { problem: `Must be at most ${max}` };
  // -0 would come back from JSON as 0; store what it will read as.
  return { value: raw === 0 ? 0 : raw };
}

function singleSelect(definition: FieldDefinition, raw: unknown): Outcome {
  if (typeof raw !== "string") return { problem: "Must be one of the field's option values" };
  if (!definition.options.some((o) => o.value === raw)) return { problem: `Not an option: ${raw}` };
  return { value: raw };
}

function multiSelect(definition: FieldDefinition, raw: unknown): Outcome {
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== "string")) return { problem: "Must be a list of the field's option values" };
  const values = raw as string[];
  if (values.length === 0) return ABSENT;
  if (new Set(values).size !== values.length) return { problem: "Must not name an option twice" };
  const unknown = values.find((v) => !definition.options.some((o) => o.value === v));
  if (unknown !== undefined) return { problem: `Not an option: ${unknown}` };
  const max = definition.limits.maxSelected;
  if (max !== undefined && values.length > max) return { problem: `Must have at most ${max} options` };
  return { value: [...values] };
}

function checkbox(definition: FieldDefinition, raw: unknown): Outcome {
  if (typeof raw !== "boolean") return { problem: "Must be true or false" };
  // A required checkbox is one the person must tick ("I accept…"), as in an HTML form.
  if (definition.required && !raw) return { problem: "Must be checked" };
  return { value: raw };
}

const CHECKS = { text, long_text: text, number, single_select: singleSelect, multi_select: multiSelect, checkbox } as const;

/**
 * Checks the `fields` of a body (values by key) against the definitions that apply to the form
 * and answers what is stored (values by field id). Every problem is collected: a key no
 * definition has, a required field left out (or blank, or unticked), a value of the wrong type,
 * past a limit or not among the options. Each is `400 validation_failed` with the field named
 * `fields.<key>`; nothing is stored then. `null`, blank text and an empty selection count as
 * left out; text is stored trimmed.
 *
 * @example
 * ```ts
 * checkFieldValues([plan], { plan: "pro" }); // { fld_…: "pro" }
 * checkFieldValues([plan], { plan: "gold" }); // throws: fields.plan: Not an option: gold
 * ```
 */
export function checkFieldValues(definitions: readonly FieldDefinition[], input: Readonly<Record<string, unknown>> | undefined): StoredFieldValues {
  const given = input ?? {};
  const problems: Record<string, string[]> = {};
  const known = new Set(definitions.map((d) => d.key));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) problems[`fields.${key}`] = ["Unknown field"];
  }
  const stored: StoredFieldValues = {};
  for (const definition of definitions) {
    const raw = Object.hasOwn(given, definition.key) ? given[definition.key] : undefined;
    const outcome = raw === undefined || raw === null ? ABSENT : CHECKS[definition.type](definition, raw);
    if ("problem" in outcome) problems[`fields.${definition.key}`] = [outcome.problem];
    else if ("value" in outcome) stored[definition.id] = outcome.value;
    else if (definition.required) problems[`fields.${definition.key}`] = ["Required"];
  }
  if (Object.keys(problems).length > 0) throw fieldProblems(problems);
  return stored;
}

/** Whether a stored value has one of the shapes a value may have (an imported archive may hold anything). */
export function isFieldValue(value: unknown): value is CustomFieldValue {
  return (
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value)) ||
    (Array.isArray(value) && value.every((v) => typeof v === "string"))
  );
}

/** The stored values of a row (its JSON column); anything unreadable counts as none. */
export function parseStoredValues(json: string): StoredFieldValues {
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => isFieldValue(v))) as StoredFieldValues;
  } catch {
    return {};
  }
}
