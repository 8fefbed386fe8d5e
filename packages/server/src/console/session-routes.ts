import { LoginBodySchema, SessionStateSchema } from "@tidings/protocol";
import Type from "typebox";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { acceptInviteRoutes } from "./accept-invite-routes.js";
import { assertNotLocked, clearLoginFailures, recordLoginFailure } from "./login-lockout.js";
import { verifyPassword } from "./passwords.js";
import { csrfTokenFor, requireSameOrigin } from "./csrf.js";
import { clearSessionCookie, sessionCookieOf } from "./session-cookie.js";
import { findSession, revokeSession } from "./sessions.js";
import { setupRequired } from "./setup-code.js";
import { setupRoute } from "./setup-route.js";
import { LOGIN_LIMIT_MESSAGE, normalizeEmail, signIn } from "./sign-in.js";

const tags = ["console auth"];
const Success = Type.Object({ success: Type.Boolean() });

/**
 * Console sign-in for people, under `/api/v1/console/auth` and outside the bearer-token hook:
 * session state, first-run setup, sign-in, sign-out, and accepting an invitation.
 */
export function consoleSessionRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get(
    "/session",
    { schema: { tags, summary: "Whether setup is open, and who the session cookie signs in", response: { 200: SessionStateSchema } } },
    async (request, reply) => {
      void reply.header("Cache-Control", "no-store");
      const cookie = sessionCookieOf(request);
      const session = cookie === undefined ? undefined : await findSession(ctx, cookie);
      if (cookie !== undefined && session === undefined) clearSessionCookie(ctx, reply);
      return {
        setupRequired: await setupRequired(db),
        user: session === undefined ? null : { id: session.userId, email: session.email, displayName: session.displayName },
        csrfToken: session === undefined || cookie === undefined ? null : csrfTokenFor(cookie),
        expiresAt: session?.expiresAt ?? null,
      };
    },
  );

  setupRoute(app, ctx);

  app.post(
    "/login",
    {
      schema: {
        tags,
        summary: "Sign in with email and password; sets the session cookie",
        body: LoginBodySchema,
        response: { 200: SessionStateSchema },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "login", LOGIN_LIMIT_MESSAGE);
      requireSameOrigin(ctx, request);
      const email = normalizeEmail(request.body.email);
      await assertNotLocked(ctx, email);
      const user = await db.selectFrom("consoleUsers").select(["id", "passwordHash"]).where("email", "=", email).executeTakeFirst();
      if (!(await verifyPassword(user?.passwordHash ?? null, request.body.password)) || user === undefined) {
        await recordLoginFailure(ctx, email);
        throw new ApiError("invalid_credentials");
      }
      await clearLoginFailures(ctx, email);
      return signIn(ctx, request, reply, user.id);
    },
  );

  app.post(
    "/logout",
    { schema: { tags, summary: "End the session of the cookie and delete it", response: { 200: Success } } },
    async (request, reply) => {
      requireSameOrigin(ctx, request);
      const cookie = sessionCookieOf(request);
      if (cookie !== undefined) await revokeSession(ctx, cookie);
      clearSessionCookie(ctx, reply);
      return { success: true };
    },
  );

  acceptInviteRoutes(app, ctx);
}
