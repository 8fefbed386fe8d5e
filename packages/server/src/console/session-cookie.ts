import { CONSOLE_SESSION_COOKIE } from "@tidings/protocol";
import { parseCookie } from "cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Context } from "../context.js";
import { serializeCookie } from "./cookies.js";
import { SESSION_MAX_AGE_MS } from "./sessions.js";

/** The cookie is sent to the console API only, never to public routes or the dashboard's files. */
export const SESSION_COOKIE_PATH = "/api/v1/console";

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
