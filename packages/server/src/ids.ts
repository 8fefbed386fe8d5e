import { randomBytes } from "node:crypto";

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
  return `${prefix}_${timePart}${base32(randomBytes(16), 16)}`;
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
