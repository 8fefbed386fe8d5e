import { AcceptInviteBodySchema, InvitationPreviewSchema, SessionStateSchema, type Role } from "@tidings/protocol";
import Type from "typebox";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { addMember } from "../workspaces/member-changes.js";
import { ensureConsoleUser } from "../workspaces/console-accounts.js";
import { AccountChanged, setAccountPassword } from "./account-password.js";
import { roleOnAcceptance } from "./acceptance-role.js";
import { liveInvitation } from "./invitations.js";
import { assertNotLocked, recordLoginFailure } from "./login-lockout.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { requireSameOrigin } from "./csrf.js";
import { LOGIN_LIMIT_MESSAGE, signIn } from "./sign-in.js";

const tags = ["console auth"];

/** Reading an invitation for the accept page, and accepting it: a password, the membership, a session. */
export function acceptInviteRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

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
      await enforceRateLimit(ctx, request, "login", LOGIN_LIMIT_MESSAGE);
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
      await enforceRateLimit(ctx, request, "login", LOGIN_LIMIT_MESSAGE);
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
