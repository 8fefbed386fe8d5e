import type { Kysely } from "kysely";
import { preparedQuery, type ParamRefs } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";

/**
 * Moves a request's `comment_count` by the visible comments added (+) or removed (−); answers
 * the request's app, or undefined when the request is gone (one round trip for both). The
 * update takes the request's row lock (see `lockRequests`).
 */
export async function moveCommentCount(
  trx: Kysely<Database>,
  featureRequestId: string,
  by: number,
  options: { updatedAt?: string; publicOnly?: boolean } = {},
): Promise<{ appId: string } | undefined> {
  let query = trx
    .updateTable("featureRequests")
    .set((eb) => ({ commentCount: eb("commentCount", "+", by), ...(options.updatedAt === undefined ? {} : { updatedAt: options.updatedAt }) }))
    .where("id", "=", featureRequestId);
  if (options.publicOnly === true) query = query.where("moderation", "=", "approved").where("mergedIntoId", "is", null);
  return query.returning("appId").executeTakeFirst();
}

/**
 * The update that moves a request's count for one new comment (`moveCommentCount` with
 * `updatedAt`), answering the request's app; `publicOnly` adds the public-only condition as
 * `moveCommentCount` does. `addComment`'s prepared count statements (one per value of
 * `publicOnly`), {@link countCommentFindUser} and the one-statement comment (`quickComment`)
 * are built on it.
 */
export function countUpdate(db: Kysely<Database>, p: ParamRefs<{ id: string; now: string }>, publicOnly: boolean) {
  const query = db
    .updateTable("featureRequests")
    .set((eb) => ({ commentCount: eb("commentCount", "+", 1), updatedAt: p.now }))
    .where("id", "=", p.id);
  return (publicOnly ? query.where("moderation", "=", "approved").where("mergedIntoId", "is", null) : query).returning("appId");
}

function countedComment(publicOnly: boolean) {
  return preparedQuery<{ id: string; now: string }, { appId: string }>((db, p) => countUpdate(db, p, publicOnly));
}

export const countComment = countedComment(false);
export const countPublicComment = countedComment(true);

/**
 * PostgreSQL, a public comment's first statement: moves the request's count as
 * {@link addComment} does for a public comment (the update takes the request's row lock, so it
 * comes before the end user is minted, in the order votes take them) and finds the caller's end
 * user by token hash in the same round trip (null when the token has none yet). Hand the count to
 * `addComment` as `counted` and the user to `ensureEndUser`. 404 when the request is not public.
 */
export async function countCommentFindUser(
  trx: Kysely<Database>,
  input: { id: string; appId: string; hash: string; now: string },
): Promise<{ counted: { appId: string; now: string }; endUser: { id: string; publicId: string } | null }> {
  const row = await countedWithUser.first(trx, input);
  if (row === undefined) throw new ApiError("feature_request_not_found");
  return { counted: { appId: row.appId, now: input.now }, endUser: row.endUserId === null || row.publicId === null ? null : { id: row.endUserId, publicId: row.publicId } };
}

const countedWithUser = preparedQuery<{ id: string; appId: string; hash: string; now: string }, { appId: string; endUserId: string | null; publicId: string | null }>((db, p) =>
  db
    .with("fr", () => countUpdate(db, p, true))
    .selectFrom("fr")
    .leftJoin("endUsers as eu", (join) => join.on("eu.appId", "=", p.appId).on("eu.tokenHash", "=", p.hash))
    .select(["fr.appId", "eu.id as endUserId", "eu.publicId"]),
);
