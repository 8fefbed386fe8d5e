import { toHex } from "./hex.js";

/** A value of a company's further attributes: flat, no objects or arrays. */
export type CompanyAttributeValue = string | number | boolean | null;

/**
 * The company an end user belongs to, as your backend reports it (docs/identifying-users.md,
 * "Companies"). A field left out keeps what the server has; `attributes`, when sent, replaces
 * the whole map.
 *
 * @example
 * ```ts
 * const company: CompanyAttributes = { id: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "EUR", plan: "business", attributes: { seats: 40 } };
 * ```
 */
export interface CompanyAttributes {
  /** Your id for the account, 1–128 characters on one line: users reported with it share the company. */
  id: string;
  /** 1–200 characters on one line. */
  name?: string | undefined;
  /** Monthly recurring revenue in currency units, 0 to 1,000,000,000; null when unknown. */
  mrr?: number | null | undefined;
  /** ISO 4217 code of the MRR; a new company without one is in USD. */
  currency?: string | undefined;
  /** 1–64 characters on one line, or null. */
  plan?: string | null | undefined;
  /** Keys of 1–64 letters, digits, `_`, `.` or `-`; at most 50 keys, 8 KB as canonical JSON. */
  attributes?: Readonly<Record<string, CompanyAttributeValue>> | undefined;
}

/** Payment attributes of an end user, as `PUT /public/apps/<APP_KEY>/user` takes them. */
export interface UserAttributes {
  isPaying?: boolean | null | undefined;
  plan?: string | null | undefined;
  /** Monthly recurring revenue in currency units. */
  mrr?: number | null | undefined;
  /** Three-letter currency code. */
  currency?: string | undefined;
  /** The user's company; null takes them out of theirs. Signed with `cpt-user-attrs-v2`. */
  company?: CompanyAttributes | null | undefined;
}

/**
 * A number as the signature canonicalises it: two decimals, trailing zeros and point dropped
 * (`99.50` → `99.5`, `10.125` → `10.13`).
 */
export function canonicalNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError("mrr must be a finite number");
  if (Math.abs(value) >= 1e21) return String(value);
  return value.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
}

function line(value: unknown, format: (v: never) => string = String): string {
  if (value === undefined) return "unset";
  if (value === null) return "null";
  return format(value as never);
}

/**
 * A flat map as RFC 8785 canonical JSON: keys sorted by UTF-16 code units, no whitespace,
 * strings and numbers as `JSON.stringify` writes them.
 *
 * @example
 * ```ts
 * canonicalAttributesJson({ seats: 40, region: "eu" }); // '{"region":"eu","seats":40}'
 * ```
 */
export function canonicalAttributesJson(attributes: Readonly<Record<string, CompanyAttributeValue>>): string {
  const keys = Object.keys(attributes).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(attributes[key])}`).join(",")}}`;
}

/** The six company lines of `cpt-user-attrs-v2`; all `null` when the user leaves their company. */
function companyLines(company: CompanyAttributes | null): string[] {
  if (company === null) return ["null", "null", "null", "null", "null", "null"];
  return [
    company.id,
    line(company.name),
    line(company.mrr, canonicalNumber),
    line(company.currency),
    line(company.plan),
    company.attributes === undefined ? "unset" : canonicalAttributesJson(company.attributes),
  ];
}

/**
 * The exact text the server verifies (wire-contract §5): eight lines of `cpt-user-attrs-v1`
 * joined by `\n`, or, when `attributes.company` is present, fourteen of `cpt-user-attrs-v2` (the
 * company's six lines before the timestamp).
 *
 * @example
 * ```ts
 * userAttributesSigningString({ appKey: "app_x", userToken: "…", attributes: { isPaying: true }, timestamp: 1700000000 });
 * userAttributesSigningString({ appKey: "app_x", userToken: "…", attributes: { company: { id: "acct_42" } }, timestamp: 1700000000 });
 * ```
 */
export function userAttributesSigningString(input: {
  appKey: string;
  userToken: string;
  attributes: UserAttributes;
  timestamp: number;
}): string {
  const a = input.attributes;
  return [
    a.company === undefined ? "cpt-user-attrs-v1" : "cpt-user-attrs-v2",
    input.appKey,
    input.userToken,
    line(a.isPaying),
    line(a.plan),
    line(a.mrr, canonicalNumber),
    line(a.currency),
    ...(a.company === undefined ? [] : companyLines(a.company)),
    String(input.timestamp),
  ].join("\n");
}

interface SubtleLike {
  importKey(format: "raw", key: BufferSource, algorithm: { name: string; hash: string }, extractable: boolean, usages: string[]): Promise<CryptoKey>;
  sign(algorithm: string, key: CryptoKey, data: BufferSource): Promise<ArrayBuffer>;
}

/**
 * Hex HMAC-SHA256 with Web Crypto (browsers, Node ≥ 20, React Native with a `crypto.subtle`
 * polyfill).
 *
 * @example
 * ```ts
 * await hmacSha256Hex("secret", "message"); // 64 hex characters
 * ```
 */
export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleLike } }).crypto?.subtle;
  if (subtle === undefined) throw new Error("Signing needs Web Crypto (crypto.subtle), which this runtime lacks");
  const encoder = new TextEncoder();
  const key = await subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = await subtle.sign("HMAC", key, encoder.encode(message));
  return toHex(new Uint8Array(signature));
}

/**
 * Signs user attributes as the server verifies them: `{signature, timestamp}` to merge into the
 * body. Usable on a backend too (the secret must never ship in a public app bundle).
 *
 * @example
 * ```ts
 * const { signature, timestamp } = await signUserAttributes({ secret, appKey, userToken, attributes: { plan: "pro" } });
 * ```
 */
export async function signUserAttributes(input: {
  secret: string;
  appKey: string;
  userToken: string;
  attributes: UserAttributes;
  /** Epoch seconds. @default now */
  timestamp?: number;
}): Promise<{ signature: string; timestamp: number }> {
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  const text = userAttributesSigningString({ ...input, timestamp });
  return { signature: await hmacSha256Hex(input.secret, text), timestamp };
}

/**
 * The `X-User-Hash` a host backend computes to vouch for a user token: hex HMAC-SHA256 of the
 * token with the app's signing secret.
 */
export function userIdentityHash(secret: string, userToken: string): Promise<string> {
  return hmacSha256Hex(secret, userToken);
}
