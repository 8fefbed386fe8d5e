import { WorkspaceUsageSchema, type WorkspaceUsage } from "@tidings/protocol";
import { workspaceAccess } from "../console/auth.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { monthlySubmissions, usageMonth } from "./quota.js";

/** `GET /workspaces/:wsId/usage` (console scope): this UTC month's submissions against the quota. */
export function intakeConsoleRoutes(app: App, ctx: Context): void {
  app.get(
    "/workspaces/:wsId/usage",
    {
      schema: {
        tags: ["console"],
        summary: "Intake submissions this UTC month, the quota, plan and subscription status (any member)",
        params: WorkspaceParams,
        response: { 200: WorkspaceUsageSchema },
      },
    },
    async (request): Promise<WorkspaceUsage> => {
      const { workspace } = await workspaceAccess(ctx, request, request.params.wsId);
      const month = usageMonth(ctx.clock);
      return {
        month,
        submissions: await monthlySubmissions(ctx.db.kysely, workspace.id, month),
        quota: workspace.monthlySubmissionQuota,
        plan: workspace.plan as WorkspaceUsage["plan"],
        subscriptionStatus: workspace.subscriptionStatus as WorkspaceUsage["subscriptionStatus"],
      };
    },
  );
}
