import { createHmac, randomInt } from "node:crypto";
import type { AltchaChallenge } from "@tidings/protocol";
import { createChallenge, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import type { AppRow } from "../apps/app-row.js";
import type { Context } from "../context.js";

/** How long a built-in altcha challenge may be solved and spent. */
export const ALTCHA_CHALLENGE_TTL_MS = 10 * 60_000;

/** PBKDF2 is what the altcha widget and WebCrypto support everywhere. */
const ALGORITHM = "PBKDF2/SHA-256";

/** Tokens are base64 JSON of a challenge and its solution; anything longer is not one of ours. */
const MAX_TOKEN_LENGTH = 8192;

/**
 * The HMAC secrets of an app's challenges, derived from its signing secret: nothing new to store,
 * and rotating the signing secret voids every outstanding challenge.
 */
function altchaSecrets(signingSecret: string) {
  const derive = (label: string) => createHmac("sha256", signingSecret).update(label).digest("hex");
  return { hmacSignatureSecret: derive("altcha"), hmacKeySignatureSecret: derive("altcha-key") };
}

/**
 * The PBKDF2 cost and max counter of a challenge. `solver: "js"` (clients without Web Crypto, which
 * derive in plain JavaScript, on Hermes in an interpreter) gets `altchaJsCost` and
 * `altchaJsMaxCounter`, each capped by its default-challenge setting so asking for it never costs more.
 *
 * @example
 * ```ts
 * altchaDifficulty(ctx.config, "js"); // { cost: 100, maxCounter: 100 } at the defaults
 * ```
 */
export function altchaDifficulty(config: Context["config"], solver?: "js"): { cost: number; maxCounter: number } {
  if (solver !== "js") return { cost: config.altchaCost, maxCounter: config.altchaMaxCounter };
  return { cost: Math.min(config.altchaJsCost, config.altchaCost), maxCounter: Math.min(config.altchaJsMaxCounter, config.altchaMaxCounter) };
}

/**
 * A signed altcha challenge for `app`, expiring {@link ALTCHA_CHALLENGE_TTL_MS} after the
 * context clock's now, at {@link altchaDifficulty}. The secret counter is drawn from [max/2, max]
 * so the work varies little. Anyone may ask for the `solver: "js"` one, so it is the difficulty a
 * bot pays.
 *
 * @example
 * ```ts
 * const challenge = await createAltchaChallenge(ctx, app); // { parameters: {…}, signature }
 * ```
 */
export async function createAltchaChallenge(ctx: Context, app: AppRow, solver?: "js"): Promise<AltchaChallenge> {
  const { cost, maxCounter } = altchaDifficulty(ctx.config, solver);
  const challenge = await createChallenge({
    algorithm: ALGORITHM,
    cost,
    counter: randomInt(Math.ceil(maxCounter / 2), maxCounter + 1),
    deriveKey,
    data: { appKey: app.appKey },
    expiresAt: new Date(ctx.clock.now().getTime() + ALTCHA_CHALLENGE_TTL_MS),
    ...altchaSecrets(app.signingSecret),
  });
  return challenge as AltchaChallenge;
}

/** A solution that verified: what makes it single-use and until when that matters. */
export interface AltchaPass {
  /** The challenge signature: unique per challenge and unchanged by re-encoding the token. */
  challengeSignature: string;
  /** ISO time the challenge expires; a record of its use is needed until then. */
  expiresAt: string;
}

function decodeToken(token: string): { challenge: Challenge; solution: Solution } | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(token, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
  if (payload === null || typeof payload !== "object") return undefined;
  const { challenge, solution } = payload as { challenge?: Partial<Challenge>; solution?: Partial<Solution> };
  if (challenge === null || typeof challenge !== "object" || typeof challenge.signature !== "string") return undefined;
  if (challenge.parameters === null || typeof challenge.parameters !== "object") return undefined;
  if (solution === null || typeof solution !== "object") return undefined;
  return { challenge: challenge as Challenge, solution: solution as Solution };
}

/**
 * Checks an altcha token (base64 JSON `{challenge, solution}`) against `app`'s secrets and the
 * context clock; undefined when it is malformed, forged, for another app, wrong or expired.
 * Replay is not checked here (see used-tokens.ts).
 *
 * @example
 * ```ts
 * const pass = await verifyAltcha(ctx, app, body.verificationToken);
 * ```
 */
export async function verifyAltcha(ctx: Context, app: AppRow, token: string): Promise<AltchaPass | undefined> {
  const decoded = decodeToken(token);
  if (decoded === undefined) return undefined;
  const { parameters } = decoded.challenge;
  // altcha-lib checks expiry against the wall clock; the injected clock decides here as well, so
  // expiry behaves the same under test time.
  const expiresAtMs = typeof parameters.expiresAt === "number" ? parameters.expiresAt * 1000 : Number.NaN;
  if (!(expiresAtMs > ctx.clock.now().getTime())) return undefined;
  if (parameters.data?.appKey !== app.appKey || parameters.algorithm !== ALGORITHM) return undefined;
  try {
    const result = await verifySolution({ ...decoded, deriveKey, ...altchaSecrets(app.signingSecret) });
    if (!result.verified) return undefined;
  } catch {
    // Malformed fields make altcha-lib throw; that is a failed verification, not a server fault.
    return undefined;
  }
  return { challengeSignature: decoded.challenge.signature as string, expiresAt: new Date(expiresAtMs).toISOString() };
}
