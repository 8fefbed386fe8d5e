import { AbortError, VerificationRequiredException } from "./errors.js";
import { toHex } from "./hex.js";
import { systemTimers, type Timers } from "./timers.js";

/** A proof-of-work challenge as `GET /public/apps/<APP_KEY>/verification/challenge` serves it (altcha v2). */
export interface AltchaChallenge {
  parameters: {
    /** Key derivation; the SDK solves `PBKDF2/SHA-256`, and `PBKDF2/SHA-384` / `PBKDF2/SHA-512` with Web Crypto. */
    algorithm: string;
    /** Hex; the password of each attempt is these bytes followed by the counter. */
    nonce: string;
    /** Hex. */
    salt: string;
    /** PBKDF2 iterations per attempt. */
    cost: number;
    /** Bytes of the derived key. @default 32 */
    keyLength?: number;
    /** Hex the derived key of the secret counter starts with. */
    keyPrefix: string;
    [field: string]: unknown;
  };
  signature?: string;
}

/** The counter whose derived key matches the challenge's prefix, and that key in lowercase hex. */
export interface AltchaSolution {
  counter: number;
  derivedKey: string;
}

/** Options of {@link solveAltchaChallenge}. */
export interface SolveAltchaOptions {
  /** Stops the search with an {@link AbortError}. */
  signal?: AbortSignal | undefined;
  /** Last counter tried before giving up (the server draws its secret counter below 1 000 000). @default 1000000 */
  maxCounter?: number | undefined;
  /**
   * Derive with Web Crypto where the runtime has `crypto.subtle`; false derives in plain
   * JavaScript even then (PBKDF2/SHA-256 only), as the SDK must on React Native's Hermes.
   * @default true
   */
  webCrypto?: boolean | undefined;
  /** Clock and timers the plain-JavaScript solver yields to the event loop with. @default the real ones */
  timers?: Timers | undefined;
}

interface SubtleLike {
  importKey(format: "raw", key: BufferSource, algorithm: "PBKDF2", extractable: boolean, usages: string[]): Promise<CryptoKey>;
  deriveBits(algorithm: { name: "PBKDF2"; salt: BufferSource; iterations: number; hash: string }, key: CryptoKey, length: number): Promise<ArrayBuffer>;
}

const HASHES: Record<string, string> = { "PBKDF2/SHA-256": "SHA-256", "PBKDF2/SHA-384": "SHA-384", "PBKDF2/SHA-512": "SHA-512" };

/**
 * The plain-JavaScript solver runs synchronously within a counter; once a slice this long is over
 * it lets the event loop run (a React Native app's touch handlers and renders) before going on.
 */
const SLICE_MS = 25;

const webCryptoSubtle = () => (globalThis as { crypto?: { subtle?: SubtleLike } }).crypto?.subtle;

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
  return webCryptoSubtle() !== undefined;
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) throw unsolvable("its hex fields are malformed");
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function unsolvable(reason: string): VerificationRequiredException {
  return new VerificationRequiredException(`Could not solve the verification challenge: ${reason}`, { code: "verification_required" });
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
export async function solveAltchaChallenge(challenge: AltchaChallenge, options: SolveAltchaOptions = {}): Promise<AltchaSolution> {
  const subtle = options.webCrypto === false ? undefined : webCryptoSubtle();
  const { algorithm, nonce, salt, cost, keyLength = 32, keyPrefix } = challenge.parameters;
  const hash = HASHES[algorithm];
  if (hash === undefined) throw unsolvable(`unsupported algorithm ${String(algorithm)}`);
  if (subtle === undefined && hash !== "SHA-256") throw unsolvable(`${algorithm} needs Web Crypto (crypto.subtle), which this runtime lacks`);
  if (typeof keyPrefix !== "string" || keyPrefix === "") throw unsolvable("it has no key prefix");
  if (!Number.isInteger(cost) || cost < 1 || !Number.isInteger(keyLength) || keyLength < 1) throw unsolvable("its cost or key length is invalid");
  const prefix = keyPrefix.toLowerCase();
  const saltBytes = hexToBytes(salt);
  const nonceBytes = hexToBytes(nonce);
  const password = new Uint8Array(nonceBytes.length + 4);
  password.set(nonceBytes);
  const view = new DataView(password.buffer);
  const maxCounter = Math.min(options.maxCounter ?? 1_000_000, 0xffffffff);
  const timers = options.timers ?? systemTimers;
  let derive: (password: Uint8Array<ArrayBuffer>) => Uint8Array | Promise<Uint8Array>;
  if (subtle === undefined) {
    // Loaded only where it runs: bundlers that split code keep it out of web apps, which have Web Crypto.
    const { pbkdf2Sha256 } = await import("./pbkdf2.js");
    derive = (bytes) => pbkdf2Sha256(bytes, saltBytes, cost, keyLength);
  } else {
    derive = async (bytes) => {
      const material = await subtle.importKey("raw", bytes, "PBKDF2", false, ["deriveBits"]);
      return new Uint8Array(await subtle.deriveBits({ name: "PBKDF2", salt: saltBytes, iterations: cost, hash }, material, keyLength * 8));
    };
  }
  let sliceStart = timers.now();
  for (let counter = 0; counter <= maxCounter; counter += 1) {
    if (options.signal?.aborted) throw new AbortError(options.signal.reason);
    view.setUint32(nonceBytes.length, counter, false);
    const key = await derive(password);
    // Web Crypto derives off the main thread; plain JavaScript must hand the thread back itself.
    if (subtle === undefined && timers.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => timers.setTimeout(() => resolve(undefined), 0));
      sliceStart = timers.now();
    }
    const derivedKey = toHex(key);
    if (derivedKey.startsWith(prefix)) return { counter, derivedKey };
  }
  throw unsolvable(`no counter up to ${maxCounter} matches`);
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
