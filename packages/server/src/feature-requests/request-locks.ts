import type { Kysely } from "kysely";
import type { DialectName } from "../db/database.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";

/**
 * Locks request rows until the transaction ends (PostgreSQL; on SQLite a write transaction has
 * the database to itself already), in id order so two lockers cannot deadlock.
 *
 * The cached counts (`vote_count`, `comment_count`) stay exact because every write that adds,
 * removes, hides, shows or moves a request's votes or comments holds that request's row lock
 * from before it reads them until it commits: by this call or by its first statement being the
 * count's own update. Under READ COMMITTED a statement run after the lock sees every write that
 * held it before, so a count moved by ±1, or recounted, after the lock is never stale.
 *
 * @example
 * ```ts
 * await lockRequests(trx, dialect, [duplicate.id, target.id]);
 * ```
 */
export async function lockRequests(trx: Kysely<Database>, dialect: DialectName, ids: readonly string[]): Promise<void> {
  if (dialect !== "postgres" || ids.length === 0) return;
  await trx.selectFrom("featureRequests").select("id").where("id", "in", [...new Set(ids)]).orderBy("id").forUpdate().execute();
}

/**
 * PostgreSQL: locks one request as {@link lockRequests} does (so concurrent votes and comments on
 * it are applied one after another, and before the end user is minted: see `ensureEndUser`) and
 * finds the caller's end user by token hash in the same round trip. No row when the request does
 * not exist (404 `feature_request_not_found`); null when the token has no end user yet.
 */
export async function lockRequestFindUser(trx: Kysely<Database>, input: { id: string; appId: string; hash: string }): Promise<{ id: string; publicId: string } | null> {
  const row = await lockedRequestAndUser.first(trx, input);
  if (row === undefined) throw new ApiError("feature_request_not_found");
  return row.endUserId === null || row.publicId === null ? null : { id: row.endUserId, publicId: row.publicId };
}

const lockedRequestAndUser = preparedQuery<
  { id: string; appId: string; hash: string },
  { id: string; endUserId: string | null; publicId: string | null }
>((db, p) =>
  db
    .selectFrom((eb) => eb.selectFrom("featureRequests").select("id").where("id", "=", p.id).forUpdate().as("fr"))
    .leftJoin("endUsers as eu", (join) => join.on("eu.appId", "=", p.appId).on("eu.tokenHash", "=", p.hash))
    .select(["fr.id", "eu.id as endUserId", "eu.publicId"]),
);
