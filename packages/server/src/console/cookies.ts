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
