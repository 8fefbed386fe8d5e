import { sql, type Expression, type Kysely, type SqlBool } from "kysely";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";

/** An app's review column (with its name, for the search text) and its default board. */
export interface AppDefaults {
  reviewId: string;
  reviewName: string;
  boardId: string;
}

function defaultsQuery(db: Kysely<Database>, appId: string) {
  return db
    .selectFrom("boardColumns as c")
    .innerJoin("boards as b", (join) => join.on("b.appId", "=", appId).on("b.isDefault", "=", 1))
    .select(["c.id as reviewId", "c.name as reviewName", "b.id as boardId"])
    .where("c.appId", "=", appId)
    .where("c.kind", "=", "pending_review")
    .orderBy("c.position")
    .limit(1);
}

export const appDefaults = preparedQuery<{ appId: string }, AppDefaults>((db, p) => defaultsQuery(db, p.appId));

/**
 * What a proposal reads before it writes, in one statement: the app's defaults and, for a caller
 * with a token (by its hash, see `tokenHash`), their end user if they have one yet (null if not),
 * to hand to `ensureEndUser` and {@link createFeatureRequest}.
 */
export async function proposalStart(trx: Kysely<Database>, appId: string, hash: string): Promise<{ defaults: AppDefaults; endUser: { id: string; publicId: string } | null }> {
  const row = await defaultsAndUser.first(trx, { appId, hash });
  if (row === undefined) throw new Error(`proposal: app ${appId} has no review column or no default board`);
  const { endUserId, publicId, ...defaults } = row;
  return { defaults, endUser: endUserId === null || publicId === null ? null : { id: endUserId, publicId } };
}

const defaultsAndUser = preparedQuery<{ appId: string; hash: string }, AppDefaults & { endUserId: string | null; publicId: string | null }>((db, p) =>
  defaultsQuery(db, p.appId)
    .leftJoin("endUsers as eu", (join) => join.on("eu.appId", "=", p.appId).on("eu.tokenHash", "=", p.hash))
    .select(["eu.id as endUserId", "eu.publicId"]),
);

/**
 * True while `defaults` (read earlier, perhaps from a cache) are still the app's: a statement that
 * wrote with them in this condition writes nothing once a column or board has moved.
 */
export function defaultsStill(db: Kysely<Database>, appId: string, defaults: { reviewId: string; reviewName: string; boardId: string }): Expression<SqlBool> {
  return db
    .selectFrom(defaultsQuery(db, appId).as("d"))
    .select(sql<number>`1`.as("one"))
    .where("d.reviewId", "=", defaults.reviewId)
    .where("d.reviewName", "=", defaults.reviewName)
    .where("d.boardId", "=", defaults.boardId)
    .$call((q) => sql<SqlBool>`exists (${q})`);
}
