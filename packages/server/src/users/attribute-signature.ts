import { createHmac, timingSafeEqual } from "node:crypto";
import type { CompanyAttributes } from "@tidings/protocol";
import { canonicalAttributes } from "../companies/company-report.js";

/** The first canonical line; it names the scheme so a signature cannot be replayed elsewhere. */
export const ATTRIBUTE_SIGNATURE_VERSION = "cpt-user-attrs-v1";
/** The first line when the body carries `company`: a v1 signature never covers a company. */
export const COMPANY_SIGNATURE_VERSION = "cpt-user-attrs-v2";

/** How far a signature's timestamp may be from the server's clock, either way. */
export const SIGNATURE_MAX_SKEW_SECONDS = 300;

/** What the signature covers; `undefined` is an absent field (`unset`), `null` an explicit null. */
export interface SignedAttributes {
  appKey: string;
  userToken: string;
  isPaying?: boolean | null | undefined;
  plan?: string | null | undefined;
  mrr?: number | null | undefined;
  currency?: string | undefined;
  /** Present (an object or null) only in a body signed with {@link COMPANY_SIGNATURE_VERSION}. */
  company?: CompanyAttributes | null | undefined;
  timestamp: number;
}

/**
 * The wire contract's number form: `toFixed(2)`, then trailing zeros and a trailing dot
 * stripped. NaN and infinities have no form.
 *
 * @example
 * ```ts
 * canonicalNumber(1200); // "1200"
 * canonicalNumber(99.5); // "99.5"
 * canonicalNumber(10.125); // "10.13"
 * ```
 */
export function canonicalNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError("canonicalNumber: value must be finite");
  const fixed = value.toFixed(2);
  // toFixed switches to exponential form at 1e21; there is nothing to strip then.
  if (!fixed.includes(".")) return fixed;
  return fixed.replace(/0+$/, "").replace(/\.$/, "");
}

function line(value: string | number | boolean | null | undefined, format: (v: never) => string = String): string {
  if (value === undefined) return "unset";
  if (value === null) return "null";
  return format(value as never);
}

/**
 * The 6 company lines of a v2 string: id, name, mrr, currency, plan, attributes; all six `null`
 * when the user leaves their company. A company's currency line is never `null` (a currency is
 * three letters), so no company reads like leaving one.
 */
function companyLines(company: CompanyAttributes | null): string[] {
  if (company === null) return Array.from({ length: 6 }, () => "null");
  return [
    company.id,
    line(company.name),
    line(company.mrr, canonicalNumber as (v: never) => string),
    line(company.currency),
    line(company.plan),
    company.attributes === undefined ? "unset" : canonicalAttributes(company.attributes),
  ];
}

/**
 * The lines joined by `\n` (no trailing newline) that the HMAC covers: 8 of
 * `cpt-user-attrs-v1`, or, when `company` is present, 14 of `cpt-user-attrs-v2` (the company's
 * 6 lines come before the timestamp). The company's values must have been checked first
 * (`parseCompanyReport`): a non-finite MRR has no canonical form.
 *
 * @example
 * ```ts
 * canonicalAttributeString({ appKey: "app_x", userToken: "u", isPaying: true, timestamp: 1700000000 });
 * // "cpt-user-attrs-v1\napp_x\nu\ntrue\nunset\nunset\nunset\n1700000000"
 * canonicalAttributeString({ appKey: "app_x", userToken: "u", company: { id: "acct_42", mrr: 1200 }, timestamp: 1700000000 });
 * // "cpt-user-attrs-v2\napp_x\nu\nunset\nunset\nunset\nunset\nacct_42\nunset\n1200\nunset\nunset\nunset\n1700000000"
 * ```
 */
export function canonicalAttributeString(input: SignedAttributes): string {
  const company = input.company === undefined ? [] : companyLines(input.company);
  return [
    input.company === undefined ? ATTRIBUTE_SIGNATURE_VERSION : COMPANY_SIGNATURE_VERSION,
    input.appKey,
    input.userToken,
    line(input.isPaying),
    line(input.plan),
    line(input.mrr, canonicalNumber as (v: never) => string),
    line(input.currency),
    ...company,
    String(input.timestamp),
  ].join("\n");
}

/**
 * Lower-case hex HMAC-SHA256 of the canonical string, keyed with the app's signing secret.
 *
 * @example
 * ```ts
 * signAttributes("cpt_sk_…", { appKey, userToken, isPaying: true, plan: "pro", timestamp }); // "59bc…"
 * ```
 */
export function signAttributes(secret: string, input: SignedAttributes): string {
  return createHmac("sha256", secret).update(canonicalAttributeString(input), "utf8").digest("hex");
}

/** Constant-time check of a 64-hex signature (case-insensitive). */
export function signatureMatches(secret: string, input: SignedAttributes, signature: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = Buffer.from(signAttributes(secret, input), "hex");
  return timingSafeEqual(expected, Buffer.from(signature.toLowerCase(), "hex"));
}
