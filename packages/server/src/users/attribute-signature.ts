import { createHmac, timingSafeEqual } from "node:crypto";

/** The first canonical line; it names the scheme so a signature cannot be replayed elsewhere. */
export const ATTRIBUTE_SIGNATURE_VERSION = "cpt-user-attrs-v1";

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
 * The 8 canonical lines joined by `\n` (no trailing newline) that the HMAC covers.
 *
 * @example
 * ```ts
 * canonicalAttributeString({ appKey: "app_x", userToken: "u", isPaying: true, timestamp: 1700000000 });
 * // "cpt-user-attrs-v1\napp_x\nu\ntrue\nunset\nunset\nunset\n1700000000"
 * ```
 */
export function canonicalAttributeString(input: SignedAttributes): string {
  return [
    ATTRIBUTE_SIGNATURE_VERSION,
    input.appKey,
    input.userToken,
    line(input.isPaying),
    line(input.plan),
    line(input.mrr, canonicalNumber as (v: never) => string),
    line(input.currency),
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
