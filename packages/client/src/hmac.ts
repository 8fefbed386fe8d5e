import { toHex } from "./hex.js";

interface SubtleLike {
  importKey(format: "raw", key: BufferSource, algorithm: { name: string; hash: string }, extractable: boolean, usages: string[]): Promise<CryptoKey>;
  sign(algorithm: string, key: CryptoKey, data: BufferSource): Promise<ArrayBuffer>;
}

/**
 * Hex HMAC-SHA256 with Web Crypto (browsers, Node ≥ 20, React Native with a `crypto.subtle`
 * polyfill).
 *
 * @example
 * ```ts
 * await hmacSha256Hex("secret", "message"); // 64 hex characters
 * ```
 */
export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleLike } }).crypto?.subtle;
  if (subtle === undefined) throw new Error("Signing needs Web Crypto (crypto.subtle), which this runtime lacks");
  const encoder = new TextEncoder();
  const key = await subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = await subtle.sign("HMAC", key, encoder.encode(message));
  return toHex(new Uint8Array(signature));
}
