import { CreateWorkspaceBodySchema, MembershipSchema, MeResponseSchema, UpdateWorkspaceBodySchema, WorkspaceSchema } from "@tidings/protocol";
import Type from "typebox";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { createWorkspace, toWorkspace, type WorkspaceRow } from "../workspaces/workspaces.js";
import { principalOf, workspaceAccess } from "./auth.js";
import { requireCapability } from "./capabilities.js";
import { WorkspaceParams } from "./workspace-params.js";

const tags = ["console"];

/** `/me` (the caller and their workspaces), creating a workspace, reading and renaming one. */
export function workspaceRoutes(app: App, ctx: Context): void {
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
}
