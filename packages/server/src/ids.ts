import { randomBytes, randomFillSync } from "node:crypto";

/** CSPRNG bytes drawn a page at a time: one call into the generator per 256 ids, not per id. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/**
 * `size` (≤ 4096) fresh random bytes from a CSPRNG. The returned view is only valid until the
 * next call: copy or encode it at once.
 */
export function pooledRandomBytes(size: number): Buffer {
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + size);
  poolOffset += size;
  return bytes;
}

const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz";

function base32(bytes: Uint8Array, length: number): string {
  let out = "";
  for (let i = 0; out.length < length; i++) out += BASE32[(bytes[i % bytes.length] ?? 0) & 31];
  return out;
}

/**
 * A new id: `prefix_` + 10 time characters + 16 random ones (base32, lowercase), so ids of one
 * kind sort roughly by creation time.
 *
 * @example
 * ```ts
 * newId("app"); // "app_01jd3k9x2m4q8r7t6v5w4x3y2z"
 * ```
 */
export function newId(prefix: string, now: Date = new Date()): string {
  let time = now.getTime();
  let timePart = "";
  for (let i = 0; i < 10; i++) {
    timePart = BASE32[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  return `${prefix}_${timePart}${base32(pooledRandomBytes(16), 16)}`;
}

/**
 * A URL-safe random string of `length` characters drawn from a CSPRNG.
 *
 * @example
 * ```ts
 * randomToken(32); // "Qm9r…"
 * ```
 */
export function randomToken(length: number): string {
  return randomBytes(Math.ceil((length * 3) / 4) + 3)
    .toString("base64url")
    .slice(0, length);
}
