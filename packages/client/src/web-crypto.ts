/** The part of `crypto.subtle` PBKDF2 needs. */
export interface SubtleLike {
  importKey(format: "raw", key: BufferSource, algorithm: "PBKDF2", extractable: boolean, usages: string[]): Promise<CryptoKey>;
  deriveBits(algorithm: { name: "PBKDF2"; salt: BufferSource; iterations: number; hash: string }, key: CryptoKey, length: number): Promise<ArrayBuffer>;
}

/** The runtime's `crypto.subtle`, if it has one. */
export const webCryptoSubtle = () => (globalThis as { crypto?: { subtle?: SubtleLike } }).crypto?.subtle;

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
