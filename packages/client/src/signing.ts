import { toHex } from "./hex.js";

/** Payment attributes of an end user, as `PUT /public/apps/<APP_KEY>/user` takes them. */
export interface UserAttributes {
  isPaying?: boolean | null | undefined;
  plan?: string | null | undefined;
  /** Monthly recurring revenue in currency units. */
  mrr?: number | null | undefined;
  /** Three-letter currency code. */
  currency?: string | undefined;
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
 * The exact text `cpt-user-attrs-v1` signs (wire-contract §5): eight lines joined by `\n`.
 *
 * @example
 * ```ts
 * userAttributesSigningString({ appKey: "app_x", userToken: "…", attributes: { isPaying: true }, timestamp: 1700000000 });
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
    "cpt-user-attrs-v1",
    input.appKey,
    input.userToken,
    line(a.isPaying),
    line(a.plan),
    line(a.mrr, canonicalNumber),
    line(a.currency),
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
