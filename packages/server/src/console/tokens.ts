import { createHash } from "node:crypto";
import type { ApiTokenScope } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { ApiTokensTable, Database } from "../db/schema.js";
import { newId, randomToken } from "../ids.js";

export type ApiTokenRow = Selectable<ApiTokensTable>;

const TOKEN_PREFIX = "tdg_";

/** SHA-256 of an API token: tokens are 240-bit random, so a fast hash is enough to store them. */
export function hashApiToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function toApiToken(row: ApiTokenRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    userId: row.userId,
    scope: row.scope,
    workspaceId: row.workspaceId,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

/** What a token may reach: `read` or `read-write`, and one workspace or (null) every one of its user's. */
export interface TokenGrant {
  scope: ApiTokenScope;
  workspaceId: string | null;
}

/**
 * Mints a console API token for a user; only its hash is stored, so the answer is the one time
 * the secret is shown. The caller has checked that the user belongs to `grant.workspaceId`.
 *
 * @example
 * ```ts
 * const { token } = await createApiToken(db, clock, userId, "assistant", { scope: "read", workspaceId: wsId });
 * ```
 */
export async function createApiToken(
  db: Kysely<Database>,
  clock: Clock,
  userId: string,
  name: string,
  grant: TokenGrant = { scope: "read-write", workspaceId: null },
): Promise<{ row: ApiTokenRow; token: string }> {
  const token = `${TOKEN_PREFIX}${randomToken(40)}`;
  const row: ApiTokenRow = {
    id: newId("tok", clock.now()),
    userId,
    name,
    tokenHash: hashApiToken(token),
    prefix: token.slice(0, TOKEN_PREFIX.length + 6),
    createdAt: isoNow(clock),
    lastUsedAt: null,
    revokedAt: null,
    scope: grant.scope,
    workspaceId: grant.workspaceId,
  };
  await db.insertInto("apiTokens").values(row).execute();
  return { row, token };
}

/** The live token with this secret and its user, or undefined. */
export async function findUserByApiToken(db: Kysely<Database>, token: string) {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return undefined;
  return db
    .selectFrom("apiTokens")
    .innerJoin("consoleUsers", "consoleUsers.id", "apiTokens.userId")
    .select([
      "apiTokens.id as tokenId",
      "apiTokens.lastUsedAt",
      "apiTokens.scope",
      "apiTokens.workspaceId",
      "consoleUsers.id as userId",
      "consoleUsers.email",
      "consoleUsers.displayName",
    ])
    .where("apiTokens.tokenHash", "=", hashApiToken(token))
    .where("apiTokens.revokedAt", "is", null)
    .executeTakeFirst();
}
