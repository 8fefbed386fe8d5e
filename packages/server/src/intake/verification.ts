import type { VerificationProvider } from "@tidings/protocol";
import type { AppRow } from "../apps/app-row.js";
import { requiredProvider } from "../apps/verification-policy.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { verifyAltcha } from "./altcha.js";
import { isTokenUsed, tokenDigest, type UsedToken } from "./used-tokens.js";
import { verifyWithVendor, type VendorProvider } from "./vendor-verify.js";

/** The surface a token was minted for; Turnstile and reCAPTCHA v3 report it back as `action`. */
export type IntakeAction = "feedback" | "feature-request";

/**
 * How long a spent vendor token stays recorded. Vendors refuse their tokens well before this
 * (Turnstile after 300 s, hCaptcha and reCAPTCHA after about 120 s), so a replay never outlives it.
 */
export const VENDOR_TOKEN_RECORD_MS = 10 * 60_000;

/**
 * The 403 an unverified submission gets. Official SDKs recognise a Turnstile refusal by
 * /turnstile/i in the message, so Turnstile apps name it.
 */
export function verificationRefusal(provider: VerificationProvider): ApiError {
  return new ApiError("verification_required", {
    message: provider === "turnstile" ? "Human verification (Turnstile) is required" : "Human verification is required",
  });
}

const VENDOR_URL = {
  turnstile: "turnstileVerifyUrl",
  hcaptcha: "hcaptchaVerifyUrl",
  recaptcha: "recaptchaVerifyUrl",
} as const satisfies Record<VendorProvider, keyof Context["config"]>;

/** A token that passed: what `commit` records so it cannot be spent twice. */
export interface VerifiedToken extends UsedToken {
  provider: VerificationProvider;
}

async function check(
  ctx: Context,
  app: AppRow,
  provider: VerificationProvider,
  token: string,
  input: { action: IntakeAction; remoteIp: string },
): Promise<UsedToken | undefined> {
  if (provider === "altcha") {
    const pass = await verifyAltcha(ctx, app, token);
    if (pass === undefined) return undefined;
    // Keyed by the challenge, not the token text: re-encoding the same solution is still a replay.
    const used = { digest: tokenDigest(`altcha:${pass.challengeSignature}`), appId: app.id, expiresAt: pass.expiresAt };
    return (await isTokenUsed(ctx.db.kysely, used.digest)) ? undefined : used;
  }
  if (provider === "turnstile" || provider === "hcaptcha" || provider === "recaptcha") {
    const digest = tokenDigest(token);
    // A spent token is refused before spending a vendor round trip on it.
    if (app.verificationSecret === null || (await isTokenUsed(ctx.db.kysely, digest))) return undefined;
    const ok = await verifyWithVendor(provider, {
      url: ctx.config[VENDOR_URL[provider]],
      secret: app.verificationSecret,
      token,
      remoteIp: input.remoteIp,
      siteKey: app.verificationSiteKey,
      action: input.action,
      cdata: app.appKey,
      timeoutMs: ctx.config.verificationTimeoutMs,
    });
    if (!ok) return undefined;
    return { digest, appId: app.id, expiresAt: new Date(ctx.clock.now().getTime() + VENDOR_TOKEN_RECORD_MS).toISOString() };
  }
  // An unknown stored provider cannot vouch for anyone: fail closed.
  return undefined;
}

/**
 * Verifies the submission's token when `app` requires one: null when not required, or when the
 * caller is `identified` (a valid `X-User-Hash` or SSO token) and the app trusts identified users;
 * the token to record when it passed; else throws 403 `verification_required`. Writes nothing.
 *
 * @example
 * ```ts
 * const verified = await verifyHuman(ctx, app, { verificationToken, identified: identity.identified, action: "feedback", remoteIp: request.ip });
 * ```
 */
export async function verifyHuman(
  ctx: Context,
  app: AppRow,
  input: { verificationToken: string | undefined; identified: boolean; action: IntakeAction; remoteIp: string },
): Promise<VerifiedToken | null> {
  const provider = requiredProvider(app, ctx.config.production);
  if (provider === null) return null;
  // The host app signed for this user with the app's secret: that is the proof a phone can give
  // without minutes of proof of work. A token sent anyway is neither checked nor spent.
  if (input.identified && app.verificationTrustIdentified === 1) return null;
  const token = input.verificationToken?.trim() ?? "";
  if (token === "") throw verificationRefusal(provider);
  const used = await check(ctx, app, provider, token, input);
  if (used === undefined) throw verificationRefusal(provider);
  return { ...used, provider };
}
