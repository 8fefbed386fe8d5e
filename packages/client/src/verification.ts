import { encodeAltchaToken, hasWebCrypto, solveAltchaChallenge, type AltchaChallenge } from "./altcha.js";
import { compact, nonBlank } from "./blank.js";
import type { CallOptions, IdempotentCallOptions } from "./call-options.js";
import { getConfig } from "./app-config.js";
import { isAbortError, NetworkException, RequestTimeoutException, VerificationRequiredException } from "./errors.js";
import type { ClientSession } from "./session.js";
import type { PublicAppConfig } from "./types.js";

/** True when intake needs the server's own proof-of-work challenge solved. */
function requiresAltcha(verification: PublicAppConfig["verification"] | undefined): boolean {
  return verification?.required === true && verification.provider === "altcha";
}

/** `GET /public/apps/<APP_KEY>/verification/challenge`, the lighter one with `solver: "js"`. */
export async function getVerificationChallenge(s: ClientSession, options: CallOptions & { solver?: "js" | undefined }): Promise<AltchaChallenge> {
  const query = options.solver === undefined ? "" : `?solver=${options.solver}`;
  return s.json<AltchaChallenge>({ method: "GET", path: s.appPath(`verification/challenge${query}`) }, options);
}

/** The built-in provider: a challenge solved with Web Crypto, or in plain JavaScript on the `js` challenge. */
export async function createVerificationToken(s: ClientSession, options: CallOptions): Promise<string> {
  const challenge = await getVerificationChallenge(s, hasWebCrypto() ? options : { ...options, solver: "js" });
  return encodeAltchaToken(challenge, await solveAltchaChallenge(challenge, { signal: options.signal, timers: s.client.timers }));
}

/**
 * True when the config last read says the app counts identified users as verified and this call
 * identifies its user (`X-User-Hash`, or an SSO token): the server then needs no token, and a
 * phone is spared the proof of work.
 */
async function verifiedAsIdentified(s: ClientSession, headers: Record<string, string>): Promise<boolean> {
  if (s.verification?.trustIdentifiedUsers !== true) return false;
  return headers["X-User-Hash"] !== undefined || (await s.identity.ssoToken()) !== undefined;
}

/**
 * Posts an intake body with a verification token: the draft's, else the provider's (blank: the
 * field is omitted). Without a provider the built-in altcha steps in when the config last read
 * requires it; when a submission is refused for verification, the config is read again and a
 * token-less one is sent once more with a solved challenge (a refused submission wrote nothing).
 * Under an idempotency key the config is read first when it has not been, so the key's first
 * answer is not that refusal.
 */
export async function postIntake<T>(
  s: ClientSession,
  path: string,
  body: object,
  draftToken: string | undefined,
  headers: Record<string, string>,
  options: CallOptions & IdempotentCallOptions,
): Promise<T> {
  const post = (verificationToken: string | undefined) => s.json<T>({ method: "POST", path, json: compact({ ...body, verificationToken }), headers }, options);
  const provider = s.options.verificationTokenProvider;
  const given = nonBlank(draftToken) ?? (provider === undefined ? undefined : nonBlank(await provider()));
  if (given !== undefined || provider !== undefined) return post(given);
  if (!s.configRead && nonBlank(options.idempotencyKey) !== undefined) {
    await getConfig(s, options).catch((configError: unknown) => {
      // Unreachable now means the submission would be too; any other answer leaves it to the POST.
      if (isAbortError(configError) || configError instanceof NetworkException || configError instanceof RequestTimeoutException) throw configError;
    });
  }
  const builtIn = requiresAltcha(s.verification) && !(await verifiedAsIdentified(s, headers)) ? await createVerificationToken(s, options) : undefined;
  try {
    return await post(builtIn);
  } catch (error) {
    if (!(error instanceof VerificationRequiredException)) throw error;
    const config = await getConfig(s, options).catch((configError: unknown) => {
      if (isAbortError(configError)) throw configError;
      return undefined;
    });
    if (builtIn !== undefined || !requiresAltcha(config?.verification)) throw error;
    return post(await createVerificationToken(s, options));
  }
}
