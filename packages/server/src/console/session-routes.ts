import {
  AcceptInviteBodySchema,
  InvitationPreviewSchema,
  LoginBodySchema,
  SessionStateSchema,
  SetupBodySchema,
  type Role,
  type SessionState,
} from "@tidings/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import Type from "typebox";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { slugify, uniqueSlug } from "../slug.js";
import { addMember, createWorkspace, ensureConsoleUser, type ConsoleAccount } from "../workspaces/workspaces.js";
import { liveInvitation, roleOnAcceptance } from "./invitations.js";
import { assertNotLocked, clearLoginFailures, recordLoginFailure } from "./login-lockout.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import {
  clearSessionCookie,
  createSession,
  csrfTokenFor,
  findSession,
  requireSameOrigin,
  revokeSession,
  sessionCookieOf,
  setSessionCookie,
} from "./sessions.js";
import { requireSetupCode, setupRequired } from "./setup-code.js";

const tags = ["console auth"];
const SETUP_MARKER = "console_setup_done";
const Success = Type.Object({ success: Type.Boolean() });
const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The account changed between the check of its password and the write: check again. */
class AccountChanged extends Error {}

/**
 * Gives `account` the password `passwordHash` (and `name` when given), provided its password is
 * still `expectedHash`, the one the caller checked before writing; otherwise a concurrent request
 * gave it a password since, and this throws {@link AccountChanged}. On PostgreSQL the update waits
 * for such a concurrent writer and then sees its password.
 */
async function setAccountPassword(
  trx: Kysely<Database>,
  ctx: Context,
  account: ConsoleAccount,
  name: string | undefined,
  passwordHash: string,
  expectedHash: string | null,
): Promise<void> {
  const updated = await trx
    .updateTable("consoleUsers")
    .set({ passwordHash, displayName: name ?? account.displayName, updatedAt: isoNow(ctx.clock) })
    .where("id", "=", account.id)
    .where((eb) => (expectedHash === null ? eb("passwordHash", "is", null) : eb("passwordHash", "=", expectedHash)))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new AccountChanged();
}

/** Signs `userId` in: a new session, its cookie, and the state the dashboard starts from. */
async function signIn(ctx: Context, request: FastifyRequest, reply: FastifyReply, userId: string): Promise<SessionState> {
  const { token, expiresAt } = await createSession(ctx, request, userId);
  setSessionCookie(ctx, reply, token);
  const user = await ctx.db.kysely.selectFrom("consoleUsers").select(["id", "email", "displayName"]).where("id", "=", userId).executeTakeFirstOrThrow();
  return { setupRequired: false, user, csrfToken: csrfTokenFor(token), expiresAt };
}

/**
 * Console sign-in for people, under `/api/v1/console/auth` and outside the bearer-token hook:
 * session state, first-run setup, sign-in, sign-out, and accepting an invitation.
 */
export function consoleSessionRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;
  const loginLimitMessage = "Too many sign-in attempts from this address. Please try again shortly.";

  /** Accepts an invitation for its email's account (created when new); answers the account's id. */
  async function acceptInvitation(body: { token: string; password: string; name?: string | undefined }): Promise<string> {
    const invitation = await liveInvitation(db, ctx.clock, body.token);
    const existing = await db.selectFrom("consoleUsers").select("passwordHash").where("email", "=", invitation.email).executeTakeFirst();
    const checkedHash = existing?.passwordHash ?? null;
    // A link must not take over an account that already has a password: it needs that password.
    if (checkedHash !== null) {
      await assertNotLocked(ctx, invitation.email);
      if (!(await verifyPassword(checkedHash, body.password))) {
        await recordLoginFailure(ctx, invitation.email);
        throw new ApiError("invalid_credentials", { message: "This email already has an account: enter its password" });
      }
    }
    const passwordHash = checkedHash ?? (await hashPassword(body.password));
    return db.transaction().execute(async (trx) => {
      const accepted = await trx
        .updateTable("consoleInvitations")
        .set({ acceptedAt: isoNow(ctx.clock) })
        .where("id", "=", invitation.id)
        .where("acceptedAt", "is", null)
        .executeTakeFirst();
      if (Number(accepted.numUpdatedRows) === 0) throw new ApiError("invalid_invitation");
      // The account as it is now: another acceptance or an added member may have created it
      // since it was read above, and the rules below judge the account that is there.
      const account = await ensureConsoleUser(trx, ctx.clock, invitation.email);
      if (account.passwordHash !== checkedHash) throw new AccountChanged();
      const role = await roleOnAcceptance(trx, invitation, account.created ? undefined : account);
      await setAccountPassword(trx, ctx, account, body.name, passwordHash, checkedHash);
      await addMember(trx, ctx.clock, invitation.workspaceId, { email: invitation.email, role });
      return account.id;
    });
  }

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

  app.post(
    "/setup",
    {
      schema: {
        tags,
        summary:
          "First run: with the setup code the server printed at start-up, create the first owner (only while no console user has a password) and sign in",
        body: SetupBodySchema,
        response: { 201: SessionStateSchema },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "login", loginLimitMessage);
      requireSameOrigin(ctx, request);
      if (!(await setupRequired(db))) throw new ApiError("setup_done");
      // Before the argon2 hash, so wrong guesses cost us little; each one spends the login bucket above.
      await requireSetupCode(ctx, request.body.setupCode);
      const email = normalizeEmail(request.body.email);
      const passwordHash = await hashPassword(request.body.password);
      let userId: string;
      try {
        userId = await db.transaction().execute(async (trx) => {
          // The marker's primary key makes a concurrent second setup fail instead of creating two owners.
          await trx.insertInto("serverSettings").values({ key: SETUP_MARKER, value: email, createdAt: isoNow(ctx.clock) }).execute();
          if (!(await setupRequired(trx))) throw new ApiError("setup_done");
          const account = await ensureConsoleUser(trx, ctx.clock, email);
          await setAccountPassword(trx, ctx, account, request.body.name, passwordHash, null);
          const id = account.id;
          const demo = await trx.selectFrom("workspaces").select("id").where("slug", "=", "demo").executeTakeFirst();
          let workspaceId = demo?.id;
          if (workspaceId === undefined) {
            const name = request.body.workspaceName ?? "My workspace";
            const taken = new Set((await trx.selectFrom("workspaces").select("slug").execute()).map((w) => w.slug));
            workspaceId = (await createWorkspace(trx, ctx.clock, { name, slug: uniqueSlug(slugify(name, "workspace"), taken) }, null)).workspace.id;
          }
          await addMember(trx, ctx.clock, workspaceId, { email, role: "owner" });
          return id;
        });
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (!(await setupRequired(db))) throw new ApiError("setup_done");
        const marker = await db.selectFrom("serverSettings").select("key").where("key", "=", SETUP_MARKER).executeTakeFirst();
        if (marker !== undefined) throw new ApiError("setup_done");
        throw error;
      }
      return reply.code(201).send(await signIn(ctx, request, reply, userId));
    },
  );

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
      await enforceRateLimit(ctx, request, "login", loginLimitMessage);
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

  app.get(
    "/invitation",
    {
      schema: {
        tags,
        summary: "What an invitation token invites to (for the accept page)",
        querystring: Type.Object({ token: Type.String({ minLength: 10, maxLength: 200 }) }),
        response: { 200: InvitationPreviewSchema },
      },
    },
    async (request) => {
      await enforceRateLimit(ctx, request, "login", loginLimitMessage);
      const invitation = await liveInvitation(db, ctx.clock, request.query.token);
      const workspace = await db.selectFrom("workspaces").select("name").where("id", "=", invitation.workspaceId).executeTakeFirstOrThrow();
      const user = await db.selectFrom("consoleUsers").select("passwordHash").where("email", "=", invitation.email).executeTakeFirst();
      return { email: invitation.email, role: invitation.role as Role, workspaceName: workspace.name, existingUser: user?.passwordHash != null };
    },
  );

  app.post(
    "/accept-invite",
    {
      schema: {
        tags,
        summary: "Accept an invitation: set a password (or give your existing one), join the workspace, sign in",
        body: AcceptInviteBodySchema,
        response: { 200: SessionStateSchema },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "login", loginLimitMessage);
      requireSameOrigin(ctx, request);
      let userId: string | undefined;
      // Another acceptance for the same email can give the account a password meanwhile: then
      // this one checks again, exactly as if it had come second.
      for (let attempt = 1; userId === undefined; attempt++) {
        try {
          userId = await acceptInvitation(request.body);
        } catch (error) {
          if (!(error instanceof AccountChanged)) throw error;
          if (attempt === 3) throw new ApiError("write_conflict");
        }
      }
      return signIn(ctx, request, reply, userId);
    },
  );
}
