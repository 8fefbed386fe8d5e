import { toHex } from "./hex.js";

interface CryptoLike {
  getRandomValues?<T extends ArrayBufferView>(array: T): T;
}

/** What a runtime without `crypto.getRandomValues` (React Native's Hermes, bare) is told to do. */
const NO_RANDOM_SOURCE =
  "No secure random source (crypto.getRandomValues) in this runtime. In React Native, install react-native-get-random-values " +
  'and import it once before the SDK, first in your entry file: import "react-native-get-random-values";';

/**
 * A random UUID v4 from the platform CSPRNG (`crypto.getRandomValues`). Throws when there is no
 * CSPRNG rather than fall back to `Math.random`: tokens are bearer credentials. The error names
 * react-native-get-random-values, the polyfill a React Native app lacks.
 *
 * @example
 * ```ts
 * uuidV4(); // "3fa85f64-5717-4562-b3fc-2c963f66afa6"
 * ```
 */
export function uuidV4(crypto: CryptoLike | undefined = (globalThis as { crypto?: CryptoLike }).crypto): string {
  if (typeof crypto?.getRandomValues !== "function") {
    throw new Error(NO_RANDOM_SOURCE);
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return toHex(bytes).replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
}
