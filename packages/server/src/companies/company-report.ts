import { COMPANY_ATTRIBUTE_LIMITS, COMPANY_MRR_MAX } from "@tidings/protocol";
import { ApiError } from "../http/errors.js";
import { isKnownCurrency } from "./currencies.js";

/** A company as a report writes it: fields left undefined keep what is stored. */
export interface CompanyReport {
  /** The host's id. */
  externalId: string;
  name?: string | undefined;
  /** Hundredths of `currency`, or null when unknown. */
  mrrCents?: number | null | undefined;
  /** ISO 4217, upper case. */
  currency?: string | undefined;
  plan?: string | null | undefined;
  /** Canonical JSON of the whole map (see {@link canonicalAttributes}). */
  attributes?: string | undefined;
}

const ATTRIBUTE_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
// eslint-disable-next-line no-control-regex -- a line of a signed string holds no control character
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A flat attribute map as RFC 8785 (JSON Canonicalization Scheme) writes it: keys sorted by
 * UTF-16 code units, no whitespace, strings and numbers as `JSON.stringify` writes them (which is
 * what the scheme specifies for a flat object). It is both the signed form and the stored one.
 *
 * @example
 * ```ts
 * canonicalAttributes({ seats: 40, region: "eu", trial: false }); // '{"region":"eu","seats":40,"trial":false}'
 * ```
 */
export function canonicalAttributes(attributes: Readonly<Record<string, string | number | boolean | null>>): string {
  const keys = Object.keys(attributes).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(attributes[key])}`).join(",")}}`;
}

/** Problems of structure (what a JSON schema would catch), worded for the source. */
export type Malformed = (field: string, message: string) => ApiError;

/** The refusal of a body field that a schema let through: `400 validation_failed` naming it. */
export const malformedBodyField: Malformed = (field, message) =>
  new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { [field]: [message] } } });

function text(value: unknown, field: string, max: number, malformed: Malformed): string {
  if (typeof value !== "string" || value.length === 0 || value.length > max || CONTROL.test(value)) {
    throw malformed(field, `must be 1 to ${max} characters on one line`);
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function attributesOf(value: unknown, malformed: Malformed): string {
  if (!isRecord(value)) throw malformed("company.attributes", "must be an object");
  const entries = Object.entries(value);
  if (entries.length > COMPANY_ATTRIBUTE_LIMITS.keys) {
    throw new ApiError("company_attributes_too_large", { message: `A company has at most ${COMPANY_ATTRIBUTE_LIMITS.keys} attributes; ${entries.length} came` });
  }
  const flat: Record<string, string | number | boolean | null> = {};
  for (const [key, item] of entries) {
    if (!ATTRIBUTE_KEY.test(key)) throw malformed(`company.attributes`, `key ${JSON.stringify(key.slice(0, 80))} must be 1 to 64 letters, digits, "_", "." or "-"`);
    if (typeof item === "string") {
      if (item.length > COMPANY_ATTRIBUTE_LIMITS.stringLength) {
        throw new ApiError("company_attributes_too_large", { message: `The company attribute "${key}" is longer than ${COMPANY_ATTRIBUTE_LIMITS.stringLength} characters` });
      }
    } else if (typeof item === "number") {
      if (!Number.isFinite(item) || Math.abs(item) > Number.MAX_SAFE_INTEGER) throw malformed(`company.attributes.${key}`, "must be a finite number within ±(2^53 − 1)");
    } else if (typeof item !== "boolean" && item !== null) {
      throw malformed(`company.attributes.${key}`, "must be a string, number, boolean or null");
    }
    flat[key] = item;
  }
  const canonical = canonicalAttributes(flat);
  if (Buffer.byteLength(canonical, "utf8") > COMPANY_ATTRIBUTE_LIMITS.canonicalBytes) {
    throw new ApiError("company_attributes_too_large", { message: `A company's attributes are at most ${COMPANY_ATTRIBUTE_LIMITS.canonicalBytes} bytes as canonical JSON` });
  }
  return canonical;
}

/**
 * Checks a reported currency against ISO 4217 (`400 unknown_currency`) and answers it in upper
 * case; the user's own `currency` and a company's go through it.
 */
export function reportedCurrency(value: string): string {
  const code = value.toUpperCase();
  if (!isKnownCurrency(code)) throw new ApiError("unknown_currency", { message: `Unknown currency code ${JSON.stringify(value.slice(0, 16))}` });
  return code;
}

/**
 * Reads a reported company (the signed body's `company`, or the SSO token's `company` claim):
 * structure problems are whatever `malformed` makes of them, an MRR that is negative, not finite
 * or above {@link COMPANY_MRR_MAX} is `400 invalid_mrr`, an unknown currency `400
 * unknown_currency`, an oversized map `400 company_attributes_too_large`.
 *
 * @example
 * ```ts
 * parseCompanyReport({ id: "acct_42", name: "Acme", mrr: 1200.5, currency: "eur" }, malformedBodyField);
 * // { externalId: "acct_42", name: "Acme", mrrCents: 120050, currency: "EUR" }
 * ```
 */
export function parseCompanyReport(value: unknown, malformed: Malformed): CompanyReport {
  if (!isRecord(value)) throw malformed("company", "must be an object or null");
  const report: CompanyReport = { externalId: text(value.id, "company.id", 128, malformed) };
  if (value.name !== undefined) report.name = text(value.name, "company.name", 200, malformed);
  if (value.plan !== undefined) report.plan = value.plan === null ? null : text(value.plan, "company.plan", 64, malformed);
  if (value.mrr !== undefined) {
    const mrr = value.mrr;
    if (mrr !== null && typeof mrr !== "number") throw malformed("company.mrr", "must be a number or null");
    if (mrr !== null && !(Number.isFinite(mrr) && mrr >= 0 && mrr <= COMPANY_MRR_MAX)) {
      throw new ApiError("invalid_mrr", { message: `A company's mrr must be a finite number from 0 to ${COMPANY_MRR_MAX}; ${String(mrr)} came` });
    }
    report.mrrCents = mrr === null ? null : Math.round(mrr * 100);
  }
  if (value.currency !== undefined) {
    if (typeof value.currency !== "string") throw malformed("company.currency", "must be a three-letter ISO 4217 code");
    report.currency = reportedCurrency(value.currency);
  }
  if (value.attributes !== undefined) report.attributes = attributesOf(value.attributes, malformed);
  return report;
}
