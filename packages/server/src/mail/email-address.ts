/**
 * A trimmed, lower-cased address, or undefined when it is not one we mail: at most 254
 * characters, one `@`, no spaces, control characters, quotes, angle brackets or commas (nothing
 * that could smuggle a second recipient or a header), and a dotted domain.
 *
 * @example
 * ```ts
 * normaliseEmail(" Ada@Example.COM "); // "ada@example.com"
 * normaliseEmail("a@b.c\r\nBcc: x@y.z"); // undefined
 * ```
 */
export function normaliseEmail(raw: string): string | undefined {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || email.length < 6) return undefined;
  if (!/^[a-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(email)) {
    return undefined;
  }
  return email;
}
