/**
 * The altcha proof-of-work search, loaded by `solveAltchaChallenge` on its first call: an app
 * whose users are never asked to solve a challenge does not load it. It imports nothing of the
 * SDK at run time; what it shares with the core comes in as {@link SolverDependencies}.
 */
import type { AbortError, VerificationRequiredException } from "./errors.js";
import type { toHex } from "./hex.js";
import type { Timers } from "./timers.js";

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

/** The bytes of a hex string; undefined when it is not one. */
function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * What the search uses of the SDK, handed in by `solveAltchaChallenge`. Were the solver to import
 * these modules, an app's bundler would move them into a chunk shared by the solver and the core,
 * and the core would import every error class from that chunk: about 150 bytes gzipped in every
 * app, solver loaded or not.
 */
export interface SolverDependencies {
  AbortError: typeof AbortError;
  VerificationRequiredException: typeof VerificationRequiredException;
  toHex: typeof toHex;
  /** The timers `options.timers` defaults to. */
  timers: Timers;
}

/** The search behind `solveAltchaChallenge`, as its doc comment describes. */
export async function solveChallenge(challenge: AltchaChallenge, options: SolveAltchaOptions, sdk: SolverDependencies): Promise<AltchaSolution> {
  const unsolvable = (reason: string) =>
    new sdk.VerificationRequiredException(`Could not solve the verification challenge: ${reason}`, { code: "verification_required" });
  const subtle = options.webCrypto === false ? undefined : (globalThis as { crypto?: { subtle?: SubtleLike } }).crypto?.subtle;
  const { algorithm, nonce, salt, cost, keyLength = 32, keyPrefix } = challenge.parameters;
  const hash = HASHES[algorithm];
  if (hash === undefined) throw unsolvable(`unsupported algorithm ${String(algorithm)}`);
  if (subtle === undefined && hash !== "SHA-256") throw unsolvable(`${algorithm} needs Web Crypto (crypto.subtle), which this runtime lacks`);
  if (typeof keyPrefix !== "string" || keyPrefix === "") throw unsolvable("it has no key prefix");
  if (!Number.isInteger(cost) || cost < 1 || !Number.isInteger(keyLength) || keyLength < 1) throw unsolvable("its cost or key length is invalid");
  const prefix = keyPrefix.toLowerCase();
  const saltBytes = hexToBytes(salt);
  const nonceBytes = hexToBytes(nonce);
  if (saltBytes === undefined || nonceBytes === undefined) throw unsolvable("its hex fields are malformed");
  const password = new Uint8Array(nonceBytes.length + 4);
  password.set(nonceBytes);
  const view = new DataView(password.buffer);
  const maxCounter = Math.min(options.maxCounter ?? 1_000_000, 0xffffffff);
  const timers = options.timers ?? sdk.timers;
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
    if (options.signal?.aborted) throw new sdk.AbortError(options.signal.reason);
    view.setUint32(nonceBytes.length, counter, false);
    const key = await derive(password);
    // Web Crypto derives off the main thread; plain JavaScript must hand the thread back itself.
    if (subtle === undefined && timers.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => timers.setTimeout(() => resolve(undefined), 0));
      sliceStart = timers.now();
    }
    const derivedKey = sdk.toHex(key);
    if (derivedKey.startsWith(prefix)) return { counter, derivedKey };
  }
  throw unsolvable(`no counter up to ${maxCounter} matches`);
}

