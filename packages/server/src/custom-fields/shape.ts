import {
  MAX_LONG_TEXT_LENGTH,
  MAX_TEXT_LENGTH,
  dropLoneSurrogates,
  type CustomFieldLimits,
  type CustomFieldOption,
  type CustomFieldType,
} from "@tidings/protocol";
import { ApiError } from "../http/errors.js";

/** A definition's type-dependent parts as stored: checked, trimmed, limits filled in. */
export interface FieldShape {
  options: CustomFieldOption[];
  limits: CustomFieldLimits;
}

/** The limits each type takes; any other is refused rather than ignored, so a typo shows. */
const LIMITS_OF: Record<CustomFieldType, readonly (keyof CustomFieldLimits)[]> = {
  text: ["maxLength"],
  long_text: ["maxLength"],
  number: ["min", "max", "integer"],
  single_select: [],
  multi_select: ["maxSelected"],
  checkbox: [],
};

const isSelect = (type: CustomFieldType) => type === "single_select" || type === "multi_select";

/**
 * `400 validation_failed` with every problem found, each under the body field it is about; the
 * message names the first one.
 */
export function fieldProblems(problems: Record<string, string[]>): ApiError {
  const [field, messages] = Object.entries(problems)[0] ?? ["", []];
  return new ApiError("validation_failed", { message: `${field}: ${messages[0] ?? "Invalid value"}`, details: { formErrors: [], fieldErrors: problems } });
}

/**
 * Checks a definition's options and limits against its type and answers what is stored: select
 * options trimmed (values unique, at least one), other types without options, and the limits of
 * the type with their defaults (`maxLength` 1000 for text, 10 000 for long text; `integer` false).
 * A problem is `400 validation_failed` naming `options…` or `limits.<name>`.
 *
 * @example
 * ```ts
 * fieldShape("text", undefined, undefined); // { options: [], limits: { maxLength: 1000 } }
 * ```
 */
export function fieldShape(type: CustomFieldType, options: readonly CustomFieldOption[] | undefined, limits: CustomFieldLimits | undefined): FieldShape {
  const problems: Record<string, string[]> = {};
  const problem = (field: string, message: string) => (problems[field] ??= []).push(message);

  const given = limits ?? {};
  for (const name of Object.keys(given) as (keyof CustomFieldLimits)[]) {
    if (given[name] !== undefined && !LIMITS_OF[type].includes(name)) problem(`limits.${name}`, `Not a limit of ${type} fields`);
  }
  const shaped: CustomFieldLimits = {};
  if (type === "text" || type === "long_text") {
    const cap = type === "text" ? MAX_TEXT_LENGTH : MAX_LONG_TEXT_LENGTH;
    if (given.maxLength !== undefined && given.maxLength > cap) problem("limits.maxLength", `Must be at most ${cap}`);
    shaped.maxLength = given.maxLength ?? cap;
  }
  if (type === "number") {
    if (given.min !== undefined) shaped.min = given.min;
    if (given.max !== undefined) shaped.max = given.max;
    if (given.min !== undefined && given.max !== undefined && given.min > given.max) problem("limits.max", "Must not be below min");
    shaped.integer = given.integer ?? false;
  }
  if (type === "multi_select" && given.maxSelected !== undefined) shaped.maxSelected = given.maxSelected;

  const shapedOptions: CustomFieldOption[] = [];
  if (isSelect(type)) {
    const seen = new Set<string>();
    for (const [i, option] of (options ?? []).entries()) {
      const value = dropLoneSurrogates(option.value).trim();
      const label = dropLoneSurrogates(option.label).trim();
      if (value === "") problem(`options.${i}.value`, "Must not be blank");
      else if (seen.has(value)) problem(`options.${i}.value`, "Must differ from the other options' values");
      if (label === "") problem(`options.${i}.label`, "Must not be blank");
      seen.add(value);
      shapedOptions.push({ value, label });
    }
    if (shapedOptions.length === 0) problem("options", "A select needs at least one option");
  } else if (options !== undefined && options.length > 0) {
    problem("options", `${type} fields have no options`);
  }
  if (Object.keys(problems).length > 0) throw fieldProblems(problems);
  return { options: shapedOptions, limits: shaped };
}
