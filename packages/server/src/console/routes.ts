import {
  AddMemberBodySchema,
  ApiTokenCreatedSchema,
  ApiTokenSchema,
  CreateTokenBodySchema,
  CreateWorkspaceBodySchema,
  IdParam,
  MembershipSchema,
  MeResponseSchema,
  UpdateMemberBodySchema,
  UpdateWorkspaceBodySchema,
  WorkspaceSchema,
} from "@tidings/protocol";
import type { Kysely } from "kysely";
import Type from "typebox";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import {
  addMember,
  createWorkspace,
  findMember,
  listMembers,
  memberByEmail,
  membershipOf,
  removeMember,
  toWorkspace,
  updateMemberRole,
  type WorkspaceRow,
} from "../workspaces/workspaces.js";
import { principalOf, workspaceAccess } from "./auth.js";
import { requireCapability, requireRoleAuthority } from "./capabilities.js";
import { createApiToken, toApiToken, type TokenGrant } from "./tokens.js";

export const WorkspaceParams = Type.Object({ wsId: IdParam("ws") });
const MemberParams = Type.Object({ wsId: IdParam("ws"), memberId: IdParam("mem") });
const TokenParams = Type.Object({ tokenId: IdParam("tok") });
const UserParams = Type.Object({ userId: IdParam("usr") });
const tags = ["console"];

/** The grant of a new token; a workspace it names must be one the user belongs to (else 404). */
async function tokenGrant(db: Kysely<Database>, userId: string, grant: TokenGrant): Promise<TokenGrant> {
  if (grant.workspaceId !== null && (await membershipOf(db, grant.workspaceId, userId)) === undefined) throw new ApiError("workspace_not_found");
  return grant;
}

/** `/me`, workspaces, members and API tokens. */
export function consoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get("/me", { schema: { tags, summary: "The caller and their workspaces", response: { 200: MeResponseSchema } } }, async (request) => {
    const principal = principalOf(request);
    if (principal.kind === "admin") {
      const rows = await db.selectFrom("workspaces").selectAll().orderBy("createdAt").execute();
      return { user: null, isBootstrapAdmin: true, workspaces: rows.map((w) => ({ workspace: toWorkspace(w), membership: null })) };
    }
    // A token bound to a workspace sees that one alone.
    const bound = principal.token?.workspaceId ?? null;
    const rows = await db
      .selectFrom("memberships")
      .innerJoin("workspaces", "workspaces.id", "memberships.workspaceId")
      .selectAll("workspaces")
      .select(["memberships.id as membershipId", "memberships.role", "memberships.createdAt as memberSince", "memberships.updatedAt as memberUpdated"])
      .where("memberships.userId", "=", principal.userId)
      .$if(bound !== null, (q) => q.where("workspaces.id", "=", bound ?? ""))
      .orderBy("workspaces.createdAt")
      .execute();
    return {
      user: { id: principal.userId, email: principal.email, displayName: principal.displayName },
      isBootstrapAdmin: false,
      workspaces: rows.map(({ membershipId, role, memberSince, memberUpdated, ...w }) => ({
        workspace: toWorkspace(w as WorkspaceRow),
        membership: {
          id: membershipId,
          workspaceId: w.id,
          userId: principal.userId,
          role: role as "owner",
          email: principal.email,
          displayName: principal.displayName,
          createdAt: memberSince,
          updatedAt: memberUpdated,
        },
      })),
    };
  });

  app.post(
    "/workspaces",
    {
      schema: {
        tags,
        summary: "Create a workspace (the caller becomes its owner)",
        body: CreateWorkspaceBodySchema,
        response: { 201: Type.Object({ workspace: WorkspaceSchema, membership: Type.Union([MembershipSchema, Type.Null()]) }) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (principal.kind === "user" && principal.token !== null && principal.token.workspaceId !== null) {
        throw new ApiError("capability_required", { message: "A token bound to one workspace cannot create workspaces" });
      }
      const result = await db
        .transaction()
        .execute((trx) => createWorkspace(trx, ctx.clock, request.body, principal.kind === "user" ? principal.userId : null));
      return reply.code(201).send({ workspace: toWorkspace(result.workspace), membership: result.membership });
    },
  );

  app.get("/workspaces/:wsId", { schema: { tags, summary: "A workspace the caller belongs to", params: WorkspaceParams, response: { 200: WorkspaceSchema } } }, async (request) => {
    const { workspace } = await workspaceAccess(ctx, request, request.params.wsId);
    return toWorkspace(workspace);
  });

  app.put(
    "/workspaces/:wsId",
    {
      schema: {
        tags,
        summary: "Rename a workspace; plan, subscription status and quota are for the instance operator",
        params: WorkspaceParams,
        body: UpdateWorkspaceBodySchema,
        response: { 200: WorkspaceSchema },
      },
    },
    async (request) => {
      const { workspace, role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "billing.manage");
      const { name, plan, subscriptionStatus, monthlySubmissionQuota } = request.body;
      const billing = plan !== undefined || subscriptionStatus !== undefined || monthlySubmissionQuota !== undefined;
      if (billing && principalOf(request).kind !== "admin") {
        throw new ApiError("capability_required", {
          message: "Only the instance operator (TIDINGS_ADMIN_TOKEN) may change plans and quotas",
        });
      }
      const changes: Partial<WorkspaceRow> = { updatedAt: isoNow(ctx.clock) };
      if (name !== undefined) changes.name = name;
      if (plan !== undefined) changes.plan = plan;
      if (subscriptionStatus !== undefined) changes.subscriptionStatus = subscriptionStatus;
      if (monthlySubmissionQuota !== undefined) changes.monthlySubmissionQuota = monthlySubmissionQuota;
      await db.updateTable("workspaces").set(changes).where("id", "=", workspace.id).execute();
      return toWorkspace({ ...workspace, ...changes });
    },
  );

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

  app.get(
    "/tokens",
    { schema: { tags, summary: "The caller's API tokens", response: { 200: Type.Object({ tokens: Type.Array(ApiTokenSchema) }) } } },
    async (request) => {
      const principal = principalOf(request);
      if (principal.kind === "admin") return { tokens: [] };
      const rows = await db
        .selectFrom("apiTokens")
        .selectAll()
        .where("userId", "=", principal.userId)
        .where("revokedAt", "is", null)
        .orderBy("createdAt")
        .execute();
      return { tokens: rows.map(toApiToken) };
    },
  );

  app.post(
    "/tokens",
    {
      schema: {
        tags,
        summary: "Create an API token for the caller (shown once)",
        description:
          "`scope`: `read-write` (default) acts with the caller's role, `read` may only read (writes are 403 `token_read_only`). " +
          "`workspaceId` binds the token to one of the caller's workspaces: every other workspace answers 404, as to a non-member. " +
          "Called with a bound token, the new token is bound to the same workspace.",
        body: CreateTokenBodySchema,
        response: { 201: ApiTokenCreatedSchema },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (principal.kind === "admin") {
        throw new ApiError("validation_failed", {
          message: "The bootstrap token has no user; use POST /api/v1/console/users/{userId}/tokens",
        });
      }
      // A token bound to a workspace mints tokens of that workspace only.
      const bound = principal.token?.workspaceId ?? null;
      const workspaceId = request.body.workspaceId ?? bound;
      if (bound !== null && workspaceId !== bound) throw new ApiError("workspace_not_found");
      const grant = await tokenGrant(db, principal.userId, { scope: request.body.scope ?? "read-write", workspaceId });
      const { row, token } = await createApiToken(db, ctx.clock, principal.userId, request.body.name, grant);
      return reply.code(201).send({ ...toApiToken(row), token });
    },
  );

  app.post(
    "/users/:userId/tokens",
    {
      schema: {
        tags,
        summary: "Bootstrap admin only: create an API token for any console user (first setup, automation)",
        params: UserParams,
        body: CreateTokenBodySchema,
        response: { 201: ApiTokenCreatedSchema },
      },
    },
    async (request, reply) => {
      if (principalOf(request).kind !== "admin") {
        throw new ApiError("capability_required", { message: "Only the bootstrap admin token may mint tokens for other users" });
      }
      const user = await db.selectFrom("consoleUsers").select("id").where("id", "=", request.params.userId).executeTakeFirst();
      if (user === undefined) throw new ApiError("user_not_found");
      const grant = await tokenGrant(db, user.id, { scope: request.body.scope ?? "read-write", workspaceId: request.body.workspaceId ?? null });
      const { row, token } = await createApiToken(db, ctx.clock, user.id, request.body.name, grant);
      return reply.code(201).send({ ...toApiToken(row), token });
    },
  );

  app.delete(
    "/tokens/:tokenId",
    { schema: { tags, summary: "Revoke one of the caller's tokens", params: TokenParams, response: { 200: Type.Object({ success: Type.Boolean() }) } } },
    async (request) => {
      const principal = principalOf(request);
      const userId = principal.kind === "user" ? principal.userId : "";
      const result = await db
        .updateTable("apiTokens")
        .set({ revokedAt: isoNow(ctx.clock) })
        .where("id", "=", request.params.tokenId)
        .where("userId", "=", userId)
        .where("revokedAt", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new ApiError("not_found", { message: "Token not found" });
      return { success: true };
    },
  );
}
