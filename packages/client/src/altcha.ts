import type { AltchaChallenge, AltchaSolution, SolveAltchaOptions } from "./altcha-solver.js";
import { AbortError, VerificationRequiredException } from "./errors.js";
import { toHex } from "./hex.js";
import { systemTimers } from "./timers.js";

export type { AltchaChallenge, AltchaSolution, SolveAltchaOptions } from "./altcha-solver.js";

/**
 * Whether this runtime solves altcha challenges with Web Crypto. Without it (React Native on
 * Hermes, pages served over plain HTTP) the SDK derives in plain JavaScript, several times slower,
 * and asks the server for the challenge meant for such clients (`?solver=js`).
 *
 * @example
 * ```ts
 * const challenge = await client.getVerificationChallenge(hasWebCrypto() ? {} : { solver: "js" });
 * ```
 */
export function hasWebCrypto(): boolean {
  return (globalThis as { crypto?: { subtle?: unknown } }).crypto?.subtle !== undefined;
}

/**
 * Solves an altcha v2 challenge the way altcha-lib's `solveChallenge` does: for counter 0, 1, 2…
 * it derives PBKDF2(nonce ‖ uint32 big-endian counter, salt, cost) and stops at the first key
 * starting with `keyPrefix`. Uses Web Crypto where the runtime has it, and otherwise a built-in
 * PBKDF2-HMAC-SHA-256 in plain JavaScript that yields to the event loop every few milliseconds.
 * Throws {@link VerificationRequiredException} when the challenge cannot be solved here and
 * {@link AbortError} when `signal` aborts.
 *
 * @example
 * ```ts
 * const solution = await solveAltchaChallenge(await client.getVerificationChallenge());
 * ```
 */
export function solveAltchaChallenge(challenge: AltchaChallenge, options: SolveAltchaOptions = {}): Promise<AltchaSolution> {
  // Loaded on the first call: an app that never solves a challenge does not load the solver.
  const sdk = { AbortError, VerificationRequiredException, toHex, timers: systemTimers };
  return import("./altcha-solver.js").then(({ solveChallenge }) => solveChallenge(challenge, options, sdk));
}

/**
 * The verification token the server checks: `base64(JSON.stringify({challenge, solution}))`.
 *
 * @example
 * ```ts
 * await client.submitFeedback({ title, details, verificationToken: encodeAltchaToken(challenge, solution) });
 * ```
 */
export function encodeAltchaToken(challenge: AltchaChallenge, solution: AltchaSolution): string {
  // `btoa` (in browsers, Node and Hermes since React Native 0.74) takes one character per byte.
  let binary = "";
  for (const byte of new TextEncoder().encode(JSON.stringify({ challenge, solution }))) binary += String.fromCharCode(byte);
  return btoa(binary);
}
