import { errors, jwtVerify, type JWTPayload } from "jose";
import { parseCompanyReport, type CompanyReport } from "../companies/company-report.js";
import { ApiError } from "../http/errors.js";

/** The longest an SSO token may live (`exp − iat`); an hour is what docs/sso.md recommends. */
export const SSO_MAX_LIFETIME_SECONDS = 24 * 60 * 60;
/** Clock skew tolerated on `exp` and `iat`, either way. */
export const SSO_CLOCK_TOLERANCE_SECONDS = 60;
/** Longer headers are refused before any parsing. */
const MAX_TOKEN_LENGTH = 8192;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const NAME_MAX = 100;
const URL_MAX = 2048;

/** The host app's user as its token describes them. */
export interface SsoProfile {
  /** `sub`: the host's stable id of the user. */
  subject: string;
  email: string | null;
  name: string | null;
  avatarUrl: string | null;
  /**
   * The `company` claim: the user's company (null: none), as of the token's `iat`. Undefined when
   * the token has no such claim, which leaves the user's company as it is.
   */
  company?: { report: CompanyReport | null; reportedAt: number } | undefined;
}

/** The app fields verification needs. */
export interface SsoApp {
  appKey: string;
  signingSecret: string;
}

function invalid(message: string): ApiError {
  return new ApiError("invalid_sso_token", { message });
}

function optionalString(payload: JWTPayload, claim: string, max: number): string | null {
  const value = payload[claim];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || value.length > max) throw invalid(`The SSO token's \`${claim}\` claim must be a string of at most ${max} characters`);
  // eslint-disable-next-line no-control-regex -- control characters have no place in a name or address
  const clean = value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return clean === "" ? null : clean;
}

function httpsUrl(value: string | null): string | null {
  if (value === null) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid("The SSO token's `picture` claim must be an https URL");
  }
  // https only: the portal's policy loads no other images, and an http avatar would be mixed content.
  if (url.protocol !== "https:") throw invalid("The SSO token's `picture` claim must be an https URL");
  return url.href;
}

/** Maps jose's refusals to the registry's codes; anything it did not anticipate is a malformed token. */
function refusal(error: unknown): ApiError {
  if (error instanceof errors.JWTExpired) return new ApiError("sso_token_expired");
  if (error instanceof errors.JWSSignatureVerificationFailed) return new ApiError("sso_signature_mismatch");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === "missing") return invalid(`The SSO token lacks the \`${error.claim}\` claim`);
    if (error.claim === "aud") return new ApiError("sso_wrong_audience");
    if (error.claim === "iat" && error.reason === "check_failed") return new ApiError("sso_token_lifetime_too_long");
    return invalid(`The SSO token's \`${error.claim}\` claim is invalid`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return invalid("SSO tokens must be signed with HS256");
  return invalid("The SSO token is not a valid JWT");
}

/**
 * Verifies a host app's sign-in token: a compact JWT signed with HS256 and the app's signing
 * secret, for audience `appKey`, with `sub`, `iat` and `exp`, living at most
 * {@link SSO_MAX_LIFETIME_SECONDS}. Other algorithms (`none` included) are refused before the
 * signature is looked at. Throws the registry's `invalid_sso_token`, `sso_signature_mismatch`,
 * `sso_token_expired`, `sso_token_lifetime_too_long` or `sso_wrong_audience`.
 *
 * @example
 * ```ts
 * const user = await verifySsoToken(request.headers["x-sso-token"], app, clock.now());
 * user.subject; // "42"
 * ```
 */
export async function verifySsoToken(raw: string, app: SsoApp, now: Date): Promise<SsoProfile> {
  const token = raw.trim();
  if (token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) throw invalid("The SSO token is not a compact JWT");
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(app.signingSecret), {
      algorithms: ["HS256"],
      audience: app.appKey,
      currentDate: now,
      clockTolerance: SSO_CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["sub", "iat", "exp", "aud"],
    }));
  } catch (error) {
    throw refusal(error);
  }
  const { sub, iat, exp } = payload;
  if (typeof sub !== "string" || sub.trim() === "" || sub.length > 256) throw invalid("The SSO token's `sub` claim must be 1 to 256 characters");
  if (typeof iat !== "number" || typeof exp !== "number") throw invalid("The SSO token's `iat` and `exp` claims must be numbers");
  const nowSeconds = now.getTime() / 1000;
  if (exp - iat > SSO_MAX_LIFETIME_SECONDS || iat > nowSeconds + SSO_CLOCK_TOLERANCE_SECONDS) throw new ApiError("sso_token_lifetime_too_long");
  const email = optionalString(payload, "email", 254);
  if (email !== null && !EMAIL.test(email)) throw invalid("The SSO token's `email` claim is not an address");
  const profile: SsoProfile = {
    subject: sub,
    email: email?.toLowerCase() ?? null,
    name: optionalString(payload, "name", NAME_MAX),
    avatarUrl: httpsUrl(optionalString(payload, "picture", URL_MAX)),
  };
  if (payload.company !== undefined) {
    // Wrong shapes are a malformed token; wrong values (MRR, currency, size) the same 400s as the signed call's.
    const report = payload.company === null ? null : parseCompanyReport(payload.company, (field, message) => invalid(`The SSO token's \`${field}\` claim ${message}`));
    profile.company = { report, reportedAt: iat };
  }
  return profile;
}

/**
 * The user token an SSO user is keyed by. It holds a space, which `X-User-Token` never may, so
 * no caller can claim an SSO user's identity by sending a token.
 */
export function ssoUserToken(subject: string): string {
  return `sso ${subject}`;
}
