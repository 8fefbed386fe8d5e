import { ApiTokenCreatedSchema, ApiTokenSchema, CreateTokenBodySchema, IdParam } from "@tidings/protocol";
import type { Kysely } from "kysely";
import Type from "typebox";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { membershipOf } from "../workspaces/members.js";
import { principalOf } from "./auth.js";
import { createApiToken, toApiToken, type TokenGrant } from "./tokens.js";

const TokenParams = Type.Object({ tokenId: IdParam("tok") });
const UserParams = Type.Object({ userId: IdParam("usr") });
const tags = ["console"];

/** The grant of a new token; a workspace it names must be one the user belongs to (else 404). */
async function tokenGrant(db: Kysely<Database>, userId: string, grant: TokenGrant): Promise<TokenGrant> {
  if (grant.workspaceId !== null && (await membershipOf(db, grant.workspaceId, userId)) === undefined) throw new ApiError("workspace_not_found");
  return grant;
}

/** The caller's API tokens: listing, minting (also for another user, by the operator) and revoking. */
export function tokenRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

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
