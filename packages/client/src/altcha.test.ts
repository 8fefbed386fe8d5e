import { createChallenge, solveChallenge, verifySolution, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeAltchaToken, hasWebCrypto, solveAltchaChallenge, type AltchaChallenge } from "./altcha.js";
import { AbortError, VerificationRequiredException } from "./errors.js";
import type { Timers } from "./timers.js";

/** The secrets and settings the server's intake/altcha.ts signs with, at test cost. */
const SECRETS = { hmacSignatureSecret: "sig-secret", hmacKeySignatureSecret: "key-secret" };

function serverChallenge(options: { counter?: number; keySignature?: boolean; algorithm?: string; data?: Record<string, string> } = {}) {
  return createChallenge({
    algorithm: options.algorithm ?? "PBKDF2/SHA-256",
    cost: 1,
    counter: options.counter ?? 17,
    deriveKey,
    data: options.data ?? { appKey: "app_demo" },
    expiresAt: new Date(Date.now() + 600_000),
    hmacSignatureSecret: SECRETS.hmacSignatureSecret,
    ...(options.keySignature === false ? {} : { hmacKeySignatureSecret: SECRETS.hmacKeySignatureSecret }),
  }) as Promise<AltchaChallenge>;
}

/** Reads a token back as the server does (base64 → UTF-8 → JSON). */
function decodeToken(token: string) {
  const bytes = Uint8Array.from(atob(token), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as { challenge: AltchaChallenge; solution: { counter: number; derivedKey: string } };
}

/** As on React Native's Hermes: `crypto` has only `getRandomValues` (react-native-get-random-values), no `subtle`. */
function hideWebCrypto() {
  const real = globalThis.crypto;
  vi.stubGlobal("crypto", { getRandomValues: real.getRandomValues.bind(real) });
}

afterEach(() => vi.unstubAllGlobals());

/** Timers on a clock that moves 10 ms each time it is read, so the solver's slices end after a few counters. */
function steppingTimers(): Timers {
  let now = 0;
  return { now: () => (now += 10), setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) };
}

describe("solveAltchaChallenge", () => {
  it.each([true, false])("finds the server's secret counter, and altcha-lib verifies the token (key signature: %s)", async (keySignature) => {
    const challenge = await serverChallenge({ counter: 23, keySignature });
    const solution = await solveAltchaChallenge(challenge);
    expect(solution.counter).toBe(23);
    const decoded = decodeToken(encodeAltchaToken(challenge, solution));
    expect(decoded).toEqual({ challenge, solution });
    const keySecret = keySignature ? { hmacKeySignatureSecret: SECRETS.hmacKeySignatureSecret } : {};
    const result = await verifySolution({ challenge: decoded.challenge as Challenge, solution: decoded.solution, deriveKey, hmacSignatureSecret: SECRETS.hmacSignatureSecret, ...keySecret });
    expect(result.verified).toBe(true);
  });

  it("gives the same solution as altcha-lib's own solver, for every PBKDF2 hash", async () => {
    for (const algorithm of ["PBKDF2/SHA-256", "PBKDF2/SHA-384", "PBKDF2/SHA-512"]) {
      const challenge = await serverChallenge({ algorithm, counter: 5 });
      const theirs = await solveChallenge({ challenge: challenge as Challenge, deriveKey });
      expect(await solveAltchaChallenge(challenge), algorithm).toEqual({ counter: theirs!.counter, derivedKey: theirs!.derivedKey });
    }
  });

  it("encodes non-ASCII challenge data as UTF-8 base64", async () => {
    const challenge = await serverChallenge({ data: { appKey: "app_ünïcode✓" }, counter: 1 });
    const solution = await solveAltchaChallenge(challenge);
    expect(decodeToken(encodeAltchaToken(challenge, solution)).challenge.parameters.data).toEqual({ appKey: "app_ünïcode✓" });
  });

  it("refuses what it cannot solve with VerificationRequiredException", async () => {
    const challenge = await serverChallenge({ counter: 30 });
    const attempts = [
      solveAltchaChallenge({ parameters: { ...challenge.parameters, algorithm: "ARGON2ID" } }),
      solveAltchaChallenge({ parameters: { ...challenge.parameters, salt: "xyz" } }),
      solveAltchaChallenge({ parameters: { ...challenge.parameters, cost: 0 } }),
      solveAltchaChallenge(challenge, { maxCounter: 10 }),
    ];
    for (const attempt of attempts) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VerificationRequiredException);
      expect((error as VerificationRequiredException).messageId).toBe("error.verificationRequired");
    }
  });

  it("stops with AbortError when the signal aborts", async () => {
    const challenge = await serverChallenge({ counter: 30 });
    const controller = new AbortController();
    controller.abort();
    await expect(solveAltchaChallenge(challenge, { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
  });
});

describe("solveAltchaChallenge without Web Crypto", () => {
  it("solves the server's challenge in plain JavaScript, and altcha-lib verifies the token", async () => {
    const challenge = await serverChallenge({ counter: 23 });
    hideWebCrypto();
    expect(hasWebCrypto()).toBe(false);
    const solution = await solveAltchaChallenge(challenge);
    const token = encodeAltchaToken(challenge, solution);
    vi.unstubAllGlobals();
    expect(solution.counter).toBe(23);
    const decoded = decodeToken(token);
    const result = await verifySolution({ challenge: decoded.challenge as Challenge, solution: decoded.solution, deriveKey, ...SECRETS });
    expect(result.verified).toBe(true);
  });

  it("finds the same solution as Web Crypto at the server's default cost", async () => {
    const challenge = (await createChallenge({ algorithm: "PBKDF2/SHA-256", cost: 2000, counter: 4, deriveKey, ...SECRETS })) as AltchaChallenge;
    const withWebCrypto = await solveAltchaChallenge(challenge);
    expect(await solveAltchaChallenge(challenge, { webCrypto: false })).toEqual(withWebCrypto);
    expect(withWebCrypto.counter).toBe(4);
  });

  it("refuses SHA-384 and SHA-512 challenges, which need Web Crypto", async () => {
    for (const algorithm of ["PBKDF2/SHA-384", "PBKDF2/SHA-512"]) {
      const challenge = await serverChallenge({ algorithm, counter: 2 });
      const error = await solveAltchaChallenge(challenge, { webCrypto: false }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VerificationRequiredException);
      expect((error as Error).message).toContain("needs Web Crypto");
    }
  });

  it("lets the app's timers run while it works", async () => {
    const challenge = await serverChallenge({ counter: 40 });
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const solution = await solveAltchaChallenge(challenge, { webCrypto: false, timers: steppingTimers() });
    expect(solution.counter).toBe(40);
    expect(timerRan).toBe(true);
  });

  it("stops with AbortError when the signal aborts while it works", async () => {
    const challenge = await serverChallenge({ counter: 200_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 0);
    await expect(solveAltchaChallenge(challenge, { webCrypto: false, timers: steppingTimers(), signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
  });
});
