import { SignJWT } from "jose";

/** Claims a test token carries; times are epoch seconds. */
export interface TestSsoClaims {
  sub?: string | undefined;
  email?: string | undefined;
  name?: string | undefined;
  picture?: string | undefined;
  aud?: string | string[] | undefined;
  iat?: number | undefined;
  exp?: number | undefined;
  [claim: string]: unknown;
}

/**
 * An HS256 SSO token as a host backend signs it: `iat` now, `exp` an hour later, `aud` the app
 * key, unless `claims` say otherwise.
 *
 * @example
 * ```ts
 * await signTestSsoToken(ws.signingSecret, ws.appKey, t.clock.now(), { sub: "42", name: "Ada" });
 * ```
 */
export async function signTestSsoToken(secret: string, appKey: string, now: Date, claims: TestSsoClaims = {}): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  // A claim given as undefined is left out, as JSON would leave it.
  const payload = JSON.parse(JSON.stringify({ sub: "host-user-1", aud: appKey, iat, exp: iat + 3600, ...claims })) as Record<string, unknown>;
  return new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(secret));
}

/** The same claims with `alg: none` and no signature, as an attacker would send them. */
export function unsignedTestSsoToken(appKey: string, now: Date, claims: TestSsoClaims = {}): string {
  const iat = Math.floor(now.getTime() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part({ sub: "host-user-1", aud: appKey, iat, exp: iat + 3600, ...claims })}.`;
}
