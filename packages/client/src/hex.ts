/**
 * Lowercase hex of `bytes`, two digits a byte. Hand-written because no runtime the SDK supports
 * has one built in yet (`Uint8Array.prototype.toHex` is neither in Node 20 nor in Hermes).
 */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
