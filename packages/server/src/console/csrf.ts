import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";

/** Header that carries the session's CSRF token on cookie-authenticated writes. */
export const CSRF_HEADER = "x-csrf-token";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * The CSRF token of a session: derived from the secret cookie, so it needs no storage, cannot be
 * computed by another site, and changes with every sign-in.
 *
 * @example
 * ```ts
 * reply.send({ csrfToken: csrfTokenFor(sessionToken) });
 * ```
 */
export function csrfTokenFor(sessionToken: string): string {
  return sha256(`tidings-csrf\0${sessionToken}`).toString("base64url");
}

/**
 * Refuses (403 `csrf_failed`) a request a browser sent on behalf of another site: an `Origin`
 * that is neither this server's (as the request reached it) nor PUBLIC_URL's, or
 * `Sec-Fetch-Site: cross-site`. Requests without either header (curl, old browsers) pass this
 * check; cookie-authenticated writes also need the CSRF token ({@link requireCsrfToken}).
 */
export function requireSameOrigin(ctx: Context, request: FastifyRequest): void {
  if (request.headers["sec-fetch-site"] === "cross-site") throw new ApiError("csrf_failed", { message: "Cross-site request refused" });
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const allowed = new Set<string>([`${request.protocol}://${request.host}`]);
  if (ctx.config.publicUrl !== null) allowed.add(new URL(ctx.config.publicUrl).origin);
  if (!allowed.has(origin)) throw new ApiError("csrf_failed", { message: "Cross-origin request refused" });
}

/** For cookie-authenticated writes: same origin, and `X-CSRF-Token` equal to the session's token. */
export function requireCsrfToken(ctx: Context, request: FastifyRequest, sessionToken: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  requireSameOrigin(ctx, request);
  const sent = request.headers[CSRF_HEADER];
  const expected = csrfTokenFor(sessionToken);
  if (typeof sent !== "string" || sent.length !== expected.length || !timingSafeEqual(Buffer.from(sent), Buffer.from(expected))) {
    throw new ApiError("csrf_failed");
  }
}
