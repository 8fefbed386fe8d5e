import { MAX_ACCESS_RULE_PLANS, textLength, type Board, type BoardAccessRule, type BoardVisibility, type CreateBoardBody } from "@tidings/protocol";
import { t } from "./i18n/t.js";
import type { FieldErrors } from "./settings-form.js";

/** Who a private board admits by payment: anyone identified, paying customers, or the others. */
export type PayingRule = "any" | "yes" | "no";

/** The board form's state: plans are typed as one comma-separated line. */
export interface BoardForm {
  name: string;
  slug: string;
  description: string;
  visibility: BoardVisibility;
  plans: string;
  paying: PayingRule;
  /** A segment the caller must be in; empty for none. */
  segmentId: string;
}

/** The form of a new board. */
export const EMPTY_BOARD_FORM: BoardForm = { name: "", slug: "", description: "", visibility: "public", plans: "", paying: "any", segmentId: "" };

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The form for a board as the server describes it. */
export function formFromBoard(board: Board): BoardForm {
  const rule = board.accessRule ?? {};
  return {
    name: board.name,
    slug: board.slug,
    description: board.description,
    visibility: board.visibility,
    plans: (rule.plans ?? []).join(", "),
    paying: rule.isPaying === undefined ? "any" : rule.isPaying ? "yes" : "no",
    segmentId: rule.segmentId ?? "",
  };
}

/** The plans of the form: trimmed, without blanks or repeats. */
export function plansOf(form: Pick<BoardForm, "plans">): string[] {
  return [...new Set(form.plans.split(",").map((plan) => plan.trim()).filter((plan) => plan !== ""))];
}

/**
 * The checks the server makes on a board, keyed by the body paths it would name, so local and
 * server mistakes show at the same input; an empty object means the form may be sent.
 *
 * @example
 * ```ts
 * validateBoard({ ...EMPTY_BOARD_FORM, slug: "Bugs!" }); // { name: ["Required."], slug: ["Use lowercase letters, digits and dashes (2–64)."] }
 * ```
 */
export function validateBoard(form: BoardForm): FieldErrors {
  const errors: FieldErrors = {};
  if (form.name.trim() === "") errors.name = [t("validation.required")];
  else if (textLength(form.name.trim()) > 80) errors.name = [t("validation.tooLong", { max: 80 })];
  const slug = form.slug.trim();
  if (slug !== "" && (!SLUG.test(slug) || slug.length < 2 || slug.length > 64)) errors.slug = [t("validation.slug")];
  if (textLength(form.description) > 500) errors.description = [t("validation.tooLong", { max: 500 })];
  if (form.visibility === "private") {
    const plans = plansOf(form);
    if (plans.length > MAX_ACCESS_RULE_PLANS) errors["accessRule.plans"] = [t("validation.tooMany", { max: MAX_ACCESS_RULE_PLANS })];
    else if (plans.some((plan) => textLength(plan) > 100)) errors["accessRule.plans"] = [t("validation.tooLong", { max: 100 })];
  }
  return errors;
}

/** The access rule of a private board's form: every condition given must hold; none admits every identified user. */
export function accessRuleOf(form: BoardForm): BoardAccessRule | null {
  const plans = plansOf(form);
  const rule: BoardAccessRule = {};
  if (plans.length > 0) rule.plans = plans;
  if (form.paying !== "any") rule.isPaying = form.paying === "yes";
  if (form.segmentId !== "") rule.segmentId = form.segmentId;
  return Object.keys(rule).length === 0 ? null : rule;
}

/** The body that creates a board, or patches one (a valid form: see {@link validateBoard}); a blank slug is left to the server. */
export function boardBody(form: BoardForm): CreateBoardBody {
  const slug = form.slug.trim();
  return {
    name: form.name.trim(),
    ...(slug === "" ? {} : { slug }),
    description: form.description.trim(),
    visibility: form.visibility,
    accessRule: form.visibility === "private" ? accessRuleOf(form) : null,
  };
}

/** Who a board is shown to, in a line; `segmentName` names a segment by id (the id itself by default). */
export function describeAccess(board: Pick<Board, "visibility" | "accessRule">, segmentName: (id: string) => string = (id) => id): string {
  if (board.visibility === "public") return t("boards.public");
  const rule = board.accessRule ?? {};
  const parts: string[] = [];
  if (rule.plans !== undefined) parts.push(t("boards.rulePlans", { plans: rule.plans.join(", ") }));
  if (rule.isPaying !== undefined) parts.push(rule.isPaying ? t("boards.rulePaying") : t("boards.ruleNotPaying"));
  if (rule.segmentId !== undefined) parts.push(t("boards.ruleSegment", { name: segmentName(rule.segmentId) }));
  return parts.length === 0 ? t("boards.privateEveryone") : t("boards.privateTo", { rule: parts.join(" · ") });
}
