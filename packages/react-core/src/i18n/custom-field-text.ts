import type { CustomField, CustomFieldProblem } from "@tidings/client";
import type { StringId } from "./en.js";
import type { Translate } from "./translate.js";

/** The UI string of each problem; its numbers fill `{count}` (a length or a number of options), `{min}` and `{max}`. */
const PROBLEM_TEXT = {
  required: "fields.missing",
  unchecked: "fields.unchecked",
  single_line: "fields.singleLine",
  too_long: "fields.tooLong",
  not_a_number: "fields.notNumber",
  not_whole: "fields.notWhole",
  below_min: "fields.belowMin",
  above_max: "fields.aboveMax",
  not_an_option: "fields.notOption",
  too_many: "fields.tooMany",
  rejected: "fields.rejected",
} as const satisfies Record<CustomFieldProblem["code"], StringId>;

/**
 * The provider-language text of a problem.
 *
 * @example
 * ```ts
 * customFieldProblemText(t, { code: "too_long", max: 80 }); // "Please use at most 80 characters."
 * ```
 */
export function customFieldProblemText(t: Translate, problem: CustomFieldProblem): string {
  const { min, max } = problem as { min?: number; max?: number };
  return t(PROBLEM_TEXT[problem.code], max === undefined ? (min === undefined ? {} : { min }) : { count: max, max });
}

/** The hint under a field of its limits: a number's range, or how many options may be picked. */
export function limitHint(t: Translate, field: CustomField): string | undefined {
  const { min, max, maxSelected } = field.limits;
  if (field.type === "number" && (min !== undefined || max !== undefined)) return t(min === undefined ? "fields.max" : max === undefined ? "fields.min" : "fields.range", { min: min ?? 0, max: max ?? 0 });
  if (field.type === "multi_select" && maxSelected !== undefined && maxSelected < field.options.length) return t("fields.upTo", { count: maxSelected });
  return undefined;
}
