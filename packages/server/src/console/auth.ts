import { createHash, timingSafeEqual } from "node:crypto";
import type { Role } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { WorkspaceRow } from "../workspaces/workspaces.js";
import { membershipOf } from "../workspaces/members.js";
import { requireCsrfToken } from "./csrf.js";
import { sessionCookieOf } from "./session-cookie.js";
import { findSession } from "./sessions.js";
import { findUserByApiToken, type TokenGrant } from "./tokens.js";

/**
 * Who is calling the console API. A user calling with an API token carries the token's grant
 * (`tokenId`, scope and workspace); through the dashboard's session, `token` is null.
 */
export type Principal =
  | { kind: "admin" }
  | { kind: "user"; userId: string; email: string; displayName: string | null; token: (TokenGrant & { id: string }) | null };

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Constant-time equality of two secrets, whatever their lengths. */
export function sameSecret(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time whatever the lengths.
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** The secret of an `Authorization: Bearer …` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * The principal of a bearer secret: the bootstrap admin for `TIDINGS_ADMIN_TOKEN`, else the user
 * of a live API token with the token's grant (its last use recorded, to the minute); 401
 * `unauthorized` for anything else, revoked tokens included.
 *
 * @example
 * ```ts
 * const principal = await principalOfToken(ctx, process.env.TIDINGS_TOKEN ?? "");
 * ```
 */
export async function principalOfToken(ctx: Pick<Context, "config" | "db" | "clock">, token: string): Promise<Principal> {
  if (ctx.config.adminToken !== null && sameSecret(token, ctx.config.adminToken)) return { kind: "admin" };
  const found = await findUserByApiToken(ctx.db.kysely, token);
  if (found === undefined) throw new ApiError("unauthorized", { message: "Invalid or revoked API token" });
  const now = ctx.clock.now();
  if (found.lastUsedAt === null || now.getTime() - Date.parse(found.lastUsedAt) > LAST_USED_RESOLUTION_MS) {
    await ctx.db.kysely.updateTable("apiTokens").set({ lastUsedAt: isoNow(ctx.clock) }).where("id", "=", found.tokenId).execute();
  }
  return {
    kind: "user",
    userId: found.userId,
    email: found.email,
    displayName: found.displayName,
    token: { id: found.tokenId, scope: found.scope, workspaceId: found.workspaceId },
  };
}

/**
 * Resolves `Authorization: Bearer …` or, without that header, the dashboard's session cookie to
 * a principal, or throws 401 `unauthorized`. Cookie-authenticated writes must also carry the
 * session's CSRF token (403 `csrf_failed`); bearer requests are unchanged. A `read` token may
 * only read: anything but GET and HEAD is 403 `token_read_only`.
 */
export async function authenticate(ctx: Context, request: FastifyRequest): Promise<Principal> {
  const header = request.headers.authorization;
  const cookie = header === undefined ? sessionCookieOf(request) : undefined;
  if (cookie !== undefined) {
    const session = await findSession(ctx, cookie);
    if (session === undefined) throw new ApiError("unauthorized", { message: "Your session has ended. Please sign in again." });
    requireCsrfToken(ctx, request, cookie);
    return { kind: "user", userId: session.userId, email: session.email, displayName: session.displayName, token: null };
  }
  const token = bearerToken(header);
  if (token === undefined) throw new ApiError("unauthorized");
  const principal = await principalOfToken(ctx, token);
  if (principal.kind === "user" && principal.token?.scope === "read" && request.method !== "GET" && request.method !== "HEAD") {
    throw new ApiError("token_read_only");
  }
  return principal;
}

/** How the event log names a caller: `user:<id>`, or `admin` for the bootstrap token. */
export function actorOf(principal: Principal): string {
  return principal.kind === "admin" ? "admin" : `user:${principal.userId}`;
}

/** The principal of a console request (set by the console auth hook). */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new ApiError("unauthorized");
  return request.principal;
}

/**
 * The workspace and the caller's role in it. The bootstrap admin acts as owner everywhere;
 * a non-member gets the same 404 as for a workspace that does not exist.
 */
export async function workspaceAccess(
  ctx: Context,
  request: FastifyRequest,
  workspaceId: string,
): Promise<{ workspace: WorkspaceRow; role: Role }> {
  return principalWorkspaceAccess(ctx.db.kysely, principalOf(request), workspaceId);
}

/**
 * {@link workspaceAccess} for a principal resolved elsewhere (the MCP server's token). A token
 * bound to another workspace gets the same 404 as a non-member.
 */
export async function principalWorkspaceAccess(
  db: Kysely<Database>,
  principal: Principal,
  workspaceId: string,
): Promise<{ workspace: WorkspaceRow; role: Role }> {
  const workspace = await db.selectFrom("workspaces").selectAll().where("id", "=", workspaceId).executeTakeFirst();
  if (workspace === undefined) throw new ApiError("workspace_not_found");
  if (principal.kind === "admin") return { workspace, role: "owner" };
  const bound = principal.token?.workspaceId ?? null;
  if (bound !== null && bound !== workspaceId) throw new ApiError("workspace_not_found");
  const membership = await membershipOf(db, workspaceId, principal.userId);
  if (membership === undefined) throw new ApiError("workspace_not_found");
  return { workspace, role: membership.role };
}
