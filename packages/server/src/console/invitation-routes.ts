import { CreateInvitationBodySchema, IdParam, InvitationCreatedSchema, InvitationSchema, type Role } from "@tidings/protocol";
import Type from "typebox";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { memberByEmail } from "../workspaces/members.js";
import { WorkspaceParams } from "./workspace-params.js";
import { principalOf, workspaceAccess } from "./auth.js";
import { higherRole, requireCapability, requireRoleAuthority } from "./capabilities.js";
import { createInvitation, pendingInvitations, toInvitation } from "./invitations.js";

const InvitationParams = Type.Object({ wsId: IdParam("ws"), invitationId: IdParam("inv") });
const tags = ["console"];

/** `W/invitations`: invite people by link (needs `members.manage`; only owners grant or touch owner). */
export function invitationRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.post(
    "/workspaces/:wsId/invitations",
    {
      schema: {
        tags,
        summary: "Invite someone by email: answers a link (shown once) that lets them set a password and join",
        params: WorkspaceParams,
        body: CreateInvitationBodySchema,
        response: { 201: InvitationCreatedSchema },
      },
    },
    async (request, reply) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "members.manage");
      // Accepting re-roles someone already in the workspace, so their current role counts too.
      const current = await memberByEmail(db, request.params.wsId, request.body.email);
      requireRoleAuthority(role, { from: current?.role, to: higherRole(current?.role, request.body.role) });
      const principal = principalOf(request);
      const { row, token } = await createInvitation(db, ctx.clock, request.params.wsId, request.body, principal.kind === "user" ? principal.userId : null);
      // The token rides in the fragment: browsers never send it to the server or in a Referer.
      const base = ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
      return reply.code(201).send({ invitation: toInvitation(row), token, url: `${base}/admin/accept-invite#token=${token}` });
    },
  );

  app.get(
    "/workspaces/:wsId/invitations",
    {
      schema: {
        tags,
        summary: "Invitations not yet accepted nor expired",
        params: WorkspaceParams,
        response: { 200: Type.Object({ invitations: Type.Array(InvitationSchema) }) },
      },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "members.manage");
      return { invitations: await pendingInvitations(db, ctx.clock, request.params.wsId) };
    },
  );

  app.delete(
    "/workspaces/:wsId/invitations/:invitationId",
    { schema: { tags, summary: "Revoke an invitation", params: InvitationParams, response: { 200: Type.Object({ success: Type.Boolean() }) } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "members.manage");
      const { wsId, invitationId } = request.params;
      const invitation = await db
        .selectFrom("consoleInvitations")
        .select("role")
        .where("id", "=", invitationId)
        .where("workspaceId", "=", wsId)
        .executeTakeFirst();
      // Withdrawing an owner's grant is an owner's call, like making one.
      if (invitation !== undefined) requireRoleAuthority(role, { from: invitation.role as Role });
      const result = await db
        .updateTable("consoleInvitations")
        .set({ revokedAt: isoNow(ctx.clock) })
        .where("id", "=", invitationId)
        .where("workspaceId", "=", wsId)
        .where("acceptedAt", "is", null)
        .where("revokedAt", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new ApiError("not_found", { message: "Invitation not found" });
      return { success: true };
    },
  );
}
