/**
 * The value of one cookie from a `Cookie` header, or undefined.
 *
 * @example
 * ```ts
 * readCookie("a=1; tidings_session=abc", "tidings_session"); // "abc"
 * ```
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Attributes of a `Set-Cookie` line. */
export interface CookieOptions {
  path: string;
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  secure: boolean;
}

/**
 * A `Set-Cookie` value that is always HttpOnly and SameSite=Strict (the console's cookies are
 * never for scripts nor for other sites).
 *
 * @example
 * ```ts
 * serializeCookie("tidings_session", token, { path: "/api/v1/console", maxAge: 604800, secure: true });
 * ```
 */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${options.maxAge}`, "HttpOnly", "SameSite=Strict"];
  if (options.maxAge === 0) parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}
