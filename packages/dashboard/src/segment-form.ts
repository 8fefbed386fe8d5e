import type { AttributeCondition, CreateSegmentBody, MrrRange, Segment, SegmentRule } from "@tidings/protocol";
import type { PayingRule } from "./board-form.js";

/** A revenue range as typed: blank bounds are left out; any bound or currency makes it a condition. */
export interface MrrInput {
  min: string;
  max: string;
  currency: string;
}

/** A company attribute condition as typed: its values one comma-separated line. */
export interface AttributeInput {
  key: string;
  values: string;
}

/** The segment form's state: lists are typed as comma-separated lines. */
export interface SegmentForm {
  name: string;
  userPlans: string;
  userPaying: PayingRule;
  userMrr: MrrInput;
  companyIds: string;
  companyPlans: string;
  companyMrr: MrrInput;
  attributes: AttributeInput[];
}

const NO_MRR: MrrInput = { min: "", max: "", currency: "" };

/** The form of a new segment (its rule holds every end user until a condition is given). */
export const EMPTY_SEGMENT_FORM: SegmentForm = { name: "", userPlans: "", userPaying: "any", userMrr: NO_MRR, companyIds: "", companyPlans: "", companyMrr: NO_MRR, attributes: [] };

/** The items of a comma-separated line: trimmed, without blanks or repeats. */
export function listOf(line: string): string[] {
  return [...new Set(line.split(",").map((item) => item.trim()).filter((item) => item !== ""))];
}

/**
 * An attribute value as typed: `true`/`false` and numbers are read as such (the JSON type counts
 * when matching), anything else, or a value in double quotes, as text.
 *
 * @example
 * ```ts
 * attributeValueOf("40"); // 40
 * attributeValueOf('"40"'); // "40"
 * ```
 */
export function attributeValueOf(text: string): string | number | boolean {
  if (text === "true" || text === "false") return text === "true";
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  const quoted = /^"(.*)"$/.exec(text);
  return quoted === null ? text : (quoted[1] ?? "");
}

/** An attribute value as the form shows it: text that would read as a number or flag is quoted. */
function attributeValueText(value: string | number | boolean): string {
  if (typeof value !== "string") return String(value);
  return typeof attributeValueOf(value) === "string" && !/^".*"$/.test(value) ? value : `"${value}"`;
}

function mrrInput(range: MrrRange | undefined): MrrInput {
  if (range === undefined) return NO_MRR;
  return { min: range.min === undefined ? "" : String(range.min), max: range.max === undefined ? "" : String(range.max), currency: range.currency };
}

/** The form for a segment as the server describes it. */
export function formFromSegment(segment: Pick<Segment, "name" | "rule">): SegmentForm {
  const user = segment.rule.user ?? {};
  const company = segment.rule.company ?? {};
  return {
    name: segment.name,
    userPlans: (user.plans ?? []).join(", "),
    userPaying: user.isPaying === undefined ? "any" : user.isPaying ? "yes" : "no",
    userMrr: mrrInput(user.mrr),
    companyIds: (company.ids ?? []).join(", "),
    companyPlans: (company.plans ?? []).join(", "),
    companyMrr: mrrInput(company.mrr),
    attributes: (company.attributes ?? []).map((a) => ({ key: a.key, values: a.in.map(attributeValueText).join(", ") })),
  };
}

/** Whether any bound or the currency of a revenue range is typed: then it is a condition. */
export const given = (mrr: MrrInput) => mrr.min.trim() !== "" || mrr.max.trim() !== "" || mrr.currency.trim() !== "";

function mrrOf(mrr: MrrInput): MrrRange | undefined {
  if (!given(mrr)) return undefined;
  const range: MrrRange = { currency: mrr.currency.trim().toUpperCase() };
  if (mrr.min.trim() !== "") range.min = Number(mrr.min.trim());
  if (mrr.max.trim() !== "") range.max = Number(mrr.max.trim());
  return range;
}

/** The rule of a form: only the conditions given; none gives `{}`, which holds every end user. */
export function segmentRuleOf(form: SegmentForm): SegmentRule {
  const user: NonNullable<SegmentRule["user"]> = {};
  const userPlans = listOf(form.userPlans);
  if (userPlans.length > 0) user.plans = userPlans;
  if (form.userPaying !== "any") user.isPaying = form.userPaying === "yes";
  const userMrr = mrrOf(form.userMrr);
  if (userMrr !== undefined) user.mrr = userMrr;
  const company: NonNullable<SegmentRule["company"]> = {};
  const ids = listOf(form.companyIds);
  if (ids.length > 0) company.ids = ids;
  const companyPlans = listOf(form.companyPlans);
  if (companyPlans.length > 0) company.plans = companyPlans;
  const companyMrr = mrrOf(form.companyMrr);
  if (companyMrr !== undefined) company.mrr = companyMrr;
  const attributes: AttributeCondition[] = form.attributes.map((a) => ({ key: a.key.trim(), in: listOf(a.values).map(attributeValueOf) }));
  if (attributes.length > 0) company.attributes = attributes;
  return { ...(Object.keys(user).length > 0 ? { user } : {}), ...(Object.keys(company).length > 0 ? { company } : {}) };
}

/** The body that creates a segment, or patches one (a valid form: see {@link validateSegment}). */
export function segmentBody(form: SegmentForm): CreateSegmentBody {
  return { name: form.name.trim(), rule: segmentRuleOf(form) };
}
