import { createHash, timingSafeEqual } from "node:crypto";
import { CONSOLE_SESSION_COOKIE } from "@tidings/protocol";
import { parseCookie } from "cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { newId, randomToken } from "../ids.js";
import { serializeCookie } from "./cookies.js";

/** The cookie is sent to the console API only, never to public routes or the dashboard's files. */
export const SESSION_COOKIE_PATH = "/api/v1/console";
/** A session ends this long after sign-in, however active. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** …or after this long without a request. */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** Header that carries the session's CSRF token on cookie-authenticated writes. */
export const CSRF_HEADER = "x-csrf-token";

const LAST_SEEN_RESOLUTION_MS = 60_000;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** The stored form of a session token. */
export function hashSessionToken(token: string): string {
  return sha256(token).toString("hex");
}

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

/** A signed-in console user resolved from a session cookie. */
export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
  displayName: string | null;
  expiresAt: string;
}

/** Starts a session for `userId`; answers the cookie's secret value (shown to the browser only). */
export async function createSession(ctx: Context, request: FastifyRequest, userId: string): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken(43);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_MS).toISOString();
  await ctx.db.kysely
    .insertInto("consoleSessions")
    .values({
      id: newId("ses", now),
      tokenHash: hashSessionToken(token),
      userId,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt,
      revokedAt: null,
      ip: request.ip.slice(0, 64),
      userAgent: (request.headers["user-agent"] ?? "").slice(0, 300) || null,
    })
    .execute();
  return { token, expiresAt };
}

/** The live session of a cookie value and its user, or undefined (unknown, revoked, expired or idle). */
export async function findSession(ctx: Context, token: string): Promise<SessionUser | undefined> {
  if (token.length < 20 || token.length > 100) return undefined;
  const row = await ctx.db.kysely
    .selectFrom("consoleSessions")
    .innerJoin("consoleUsers", "consoleUsers.id", "consoleSessions.userId")
    .select([
      "consoleSessions.id",
      "consoleSessions.expiresAt",
      "consoleSessions.lastSeenAt",
      "consoleSessions.revokedAt",
      "consoleUsers.id as userId",
      "consoleUsers.email",
      "consoleUsers.displayName",
    ])
    .where("consoleSessions.tokenHash", "=", hashSessionToken(token))
    .executeTakeFirst();
  if (row === undefined || row.revokedAt !== null) return undefined;
  const now = ctx.clock.now().getTime();
  if (now >= Date.parse(row.expiresAt) || now - Date.parse(row.lastSeenAt) >= SESSION_IDLE_MS) return undefined;
  if (now - Date.parse(row.lastSeenAt) > LAST_SEEN_RESOLUTION_MS) {
    await ctx.db.kysely.updateTable("consoleSessions").set({ lastSeenAt: isoNow(ctx.clock) }).where("id", "=", row.id).execute();
  }
  return { sessionId: row.id, userId: row.userId, email: row.email, displayName: row.displayName, expiresAt: row.expiresAt };
}

/** Ends the session of a cookie value (no-op when unknown). */
export async function revokeSession(ctx: Context, token: string): Promise<void> {
  await ctx.db.kysely
    .updateTable("consoleSessions")
    .set({ revokedAt: isoNow(ctx.clock) })
    .where("tokenHash", "=", hashSessionToken(token))
    .where("revokedAt", "is", null)
    .execute();
}

/** The session cookie's value on a request, if any. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  const value = parseCookie(request.headers.cookie ?? "")[CONSOLE_SESSION_COOKIE];
  return value === undefined || value === "" ? undefined : value;
}

const secureCookies = (ctx: Context) => ctx.config.publicUrl?.startsWith("https://") === true;

/** Sets the session cookie (Secure when PUBLIC_URL is https). */
export function setSessionCookie(ctx: Context, reply: FastifyReply, token: string): void {
  void reply.header(
    "Set-Cookie",
    serializeCookie(CONSOLE_SESSION_COOKIE, token, { path: SESSION_COOKIE_PATH, maxAge: SESSION_MAX_AGE_MS / 1000, secure: secureCookies(ctx) }),
  );
}

/** Deletes the session cookie in the browser. */
export function clearSessionCookie(ctx: Context, reply: FastifyReply): void {
  void reply.header("Set-Cookie", serializeCookie(CONSOLE_SESSION_COOKIE, "", { path: SESSION_COOKIE_PATH, maxAge: 0, secure: secureCookies(ctx) }));
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
