import { COMPANY_MRR_MAX, MAX_SEGMENT_VALUES, textLength } from "@tidings/protocol";
import { t } from "./i18n/t.js";
import { given, listOf, type MrrInput, type SegmentForm } from "./segment-form.js";
import type { FieldErrors } from "./settings-form.js";

const ATTRIBUTE_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

function checkMrr(mrr: MrrInput, path: string, errors: FieldErrors): void {
  if (!given(mrr)) return;
  const bounds: number[] = [];
  for (const end of ["min", "max"] as const) {
    const text = mrr[end].trim();
    if (text === "") continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || value > COMPANY_MRR_MAX) errors[`${path}.${end}`] = [t("segments.mrrBound", { max: COMPANY_MRR_MAX })];
    else bounds.push(value);
  }
  if (mrr.min.trim() !== "" && mrr.max.trim() !== "" && bounds.length === 2 && (bounds[0] ?? 0) > (bounds[1] ?? 0)) errors[`${path}.max`] = [t("validation.maxBelowMin")];
  if (!/^[A-Za-z]{3}$/.test(mrr.currency.trim())) errors[`${path}.currency`] = [t("segments.currency")];
}

function checkList(line: string, path: string, max: number, errors: FieldErrors): void {
  const items = listOf(line);
  if (items.length > MAX_SEGMENT_VALUES) errors[path] = [t("validation.tooMany", { max: MAX_SEGMENT_VALUES })];
  else if (items.some((item) => textLength(item) > max)) errors[path] = [t("validation.tooLong", { max })];
}

/**
 * The checks the server makes on a segment, keyed by the body paths it would name
 * (`rule.user.mrr.currency`, `rule.company.attributes.0.key`), so local and server mistakes show
 * at the same input; an empty object means the form may be sent.
 *
 * @example
 * ```ts
 * validateSegment({ ...EMPTY_SEGMENT_FORM, name: "Pro", userMrr: { min: "50", max: "", currency: "" } }); // { "rule.user.mrr.currency": ["Enter a three-letter currency code (USD, EUR)."] }
 * ```
 */
export function validateSegment(form: SegmentForm): FieldErrors {
  const errors: FieldErrors = {};
  if (form.name.trim() === "") errors.name = [t("validation.required")];
  else if (textLength(form.name.trim()) > 80) errors.name = [t("validation.tooLong", { max: 80 })];
  checkList(form.userPlans, "rule.user.plans", 64, errors);
  checkMrr(form.userMrr, "rule.user.mrr", errors);
  checkList(form.companyIds, "rule.company.ids", 128, errors);
  checkList(form.companyPlans, "rule.company.plans", 64, errors);
  checkMrr(form.companyMrr, "rule.company.mrr", errors);
  form.attributes.forEach((attribute, index) => {
    if (!ATTRIBUTE_KEY.test(attribute.key.trim())) errors[`rule.company.attributes.${index}.key`] = [t("segments.attributeKey")];
    const values = listOf(attribute.values);
    if (values.length === 0) errors[`rule.company.attributes.${index}.in`] = [t("segments.attributeValues")];
    else if (values.length > MAX_SEGMENT_VALUES) errors[`rule.company.attributes.${index}.in`] = [t("validation.tooMany", { max: MAX_SEGMENT_VALUES })];
  });
  return errors;
}
