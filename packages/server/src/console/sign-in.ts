import type { SessionState } from "@tidings/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Context } from "../context.js";
import { csrfTokenFor } from "./csrf.js";
import { setSessionCookie } from "./session-cookie.js";
import { createSession } from "./sessions.js";

/** What the login bucket answers to setup, sign-in and invitation routes alike. */
export const LOGIN_LIMIT_MESSAGE = "Too many sign-in attempts from this address. Please try again shortly.";

/** Emails are compared trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Signs `userId` in: a new session, its cookie, and the state the dashboard starts from. */
export async function signIn(ctx: Context, request: FastifyRequest, reply: FastifyReply, userId: string): Promise<SessionState> {
  const { token, expiresAt } = await createSession(ctx, request, userId);
  setSessionCookie(ctx, reply, token);
  const user = await ctx.db.kysely.selectFrom("consoleUsers").select(["id", "email", "displayName"]).where("id", "=", userId).executeTakeFirstOrThrow();
  return { setupRequired: false, user, csrfToken: csrfTokenFor(token), expiresAt };
}
