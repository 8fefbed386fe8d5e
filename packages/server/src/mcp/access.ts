import type { ApiTokenScope, Role } from "@tidings/protocol";
import { principalOfToken, principalWorkspaceAccess } from "../console/auth.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";

/** Who an MCP connection acts as: a user's API token, confined to one workspace. */
export interface McpAccess {
  tokenId: string;
  userId: string;
  /** `read` tokens are given the read tools only. */
  scope: ApiTokenScope;
  workspaceId: string;
  workspaceName: string;
  role: Role;
  /** The event log's name for the caller, as the console API writes it. */
  actor: string;
}

/**
 * The access a console API token gives the MCP server: its bound workspace, or the only one its
 * user belongs to. Throws 401 `unauthorized` for a missing, unknown or revoked token and for the
 * operator's `TIDINGS_ADMIN_TOKEN` (it has no user and no workspace), and 403
 * `token_workspace_required` for an unbound token whose user has several workspaces (or none).
 * Membership is checked on every call, so a user removed from the workspace loses it at once.
 *
 * @example
 * ```ts
 * const access = await mcpAccess(ctx, process.env.TIDINGS_TOKEN);
 * access.workspaceId; // "ws_…"
 * ```
 */
export async function mcpAccess(ctx: Pick<Context, "config" | "db" | "clock">, token: string | undefined): Promise<McpAccess> {
  if (token === undefined || token === "") throw new ApiError("unauthorized", { message: "A console API token is required" });
  const principal = await principalOfToken(ctx, token);
  if (principal.kind === "admin" || principal.token === null) {
    throw new ApiError("unauthorized", { message: "The MCP server needs a console API token of a user, not TIDINGS_ADMIN_TOKEN" });
  }
  let workspaceId = principal.token.workspaceId;
  if (workspaceId === null) {
    const memberships = await ctx.db.kysely.selectFrom("memberships").select("workspaceId").where("userId", "=", principal.userId).limit(2).execute();
    if (memberships.length !== 1) throw new ApiError("token_workspace_required");
    workspaceId = memberships[0]!.workspaceId;
  }
  const { workspace, role } = await principalWorkspaceAccess(ctx.db.kysely, principal, workspaceId);
  return {
    tokenId: principal.token.id,
    userId: principal.userId,
    scope: principal.token.scope,
    workspaceId: workspace.id,
    workspaceName: workspace.name,
    role,
    actor: `user:${principal.userId}`,
  };
}
