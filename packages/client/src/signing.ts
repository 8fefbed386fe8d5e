import { hmacSha256Hex } from "./hmac.js";
import { userAttributesSigningString } from "./signing-string.js";
import type { UserAttributes } from "./user-attributes.js";

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
