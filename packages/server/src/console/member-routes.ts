import { AddMemberBodySchema, IdParam, MembershipSchema, UpdateMemberBodySchema } from "@tidings/protocol";
import Type from "typebox";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { addMember, removeMember, updateMemberRole } from "../workspaces/member-changes.js";
import { findMember, listMembers, memberByEmail } from "../workspaces/members.js";
import { workspaceAccess } from "./auth.js";
import { requireCapability, requireRoleAuthority } from "./capabilities.js";
import { WorkspaceParams } from "./workspace-params.js";

const MemberParams = Type.Object({ wsId: IdParam("ws"), memberId: IdParam("mem") });
const tags = ["console"];

/** The members of a workspace: listing, adding, re-roling and removing them. */
export function memberRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get(
    "/workspaces/:wsId/members",
    { schema: { tags, summary: "The members of a workspace and their roles", params: WorkspaceParams, response: { 200: Type.Object({ members: Type.Array(MembershipSchema), total: Type.Integer() }) } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const members = await listMembers(db, request.params.wsId);
      return { members, total: members.length };
    },
  );

  app.post(
    "/workspaces/:wsId/members",
    {
      schema: {
        tags,
        summary: "Add a member by email (creates the console user when new)",
        params: WorkspaceParams,
        body: AddMemberBodySchema,
        response: { 201: Type.Object({ member: MembershipSchema, status: Type.String() }) },
      },
    },
    async (request, reply) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "members.manage");
      const member = await db.transaction().execute(async (trx) => {
        // Adding an email that is already a member re-roles them, so the current role counts too.
        const current = await memberByEmail(trx, request.params.wsId, request.body.email);
        requireRoleAuthority(role, { from: current?.role, to: request.body.role });
        return addMember(trx, ctx.clock, request.params.wsId, request.body);
      });
      return reply.code(201).send({ member, status: "active" });
    },
  );

  app.put(
    "/workspaces/:wsId/members/:memberId",
    { schema: { tags, summary: "Change a member's role", params: MemberParams, body: UpdateMemberBodySchema, response: { 200: MembershipSchema } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "members.manage");
      const { wsId, memberId } = request.params;
      return db.transaction().execute(async (trx) => {
        requireRoleAuthority(role, { from: (await findMember(trx, wsId, memberId)).role, to: request.body.role });
        return updateMemberRole(trx, ctx.clock, wsId, memberId, request.body.role);
      });
    },
  );

  app.delete(
    "/workspaces/:wsId/members/:memberId",
    { schema: { tags, summary: "Remove a member from a workspace", params: MemberParams, response: { 200: Type.Object({ success: Type.Boolean() }) } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "members.manage");
      const { wsId, memberId } = request.params;
      await db.transaction().execute(async (trx) => {
        requireRoleAuthority(role, { from: (await findMember(trx, wsId, memberId)).role });
        await removeMember(trx, wsId, memberId);
      });
      return { success: true };
    },
  );
}
