import { sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// The public listing in its two orders, split by who sees a request. The approved, unmerged
// requests of an app, in `newest` and `top` order, in partial indexes holding nothing else: a page
// read from the full (app, age) or (app, votes, age) index walked past every pending, declined and
// merged request in its way, and proposals waiting for review are the newest and least voted, so
// `newest` and `top` pages grew with the pending proposals of the whole app. And each end user's
// pending requests in both orders, so a viewer's own pending requests are merged into a page by
// reading only the page's slice of them. Their state columns are in them too, although the
// partial condition fixes them, because SQLite only reads a query from an index alone (counting
// them without reading a row) when every column the query names is in it; `merged_into_id` comes
// last, as PostgreSQL does not take `is null` as fixing a column's value, and the order after it
// would not serve.

const listed = sql<boolean>`moderation = 'approved' and merged_into_id is null`;
const ownPending = sql<boolean>`moderation = 'pending' and merged_into_id is null`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("feature_requests_listed_newest_idx").on("feature_requests").columns(["app_id", "created_at", "id"]).where(listed).execute();
  await db.schema.createIndex("feature_requests_listed_top_idx").on("feature_requests").columns(["app_id", "vote_count", "created_at", "id"]).where(listed).execute();
  await db.schema
    .createIndex("feature_requests_own_pending_newest_idx")
    .on("feature_requests")
    .columns(["app_id", "requester_end_user_id", "moderation", "created_at", "id", "merged_into_id"])
    .where(ownPending)
    .execute();
  await db.schema
    .createIndex("feature_requests_own_pending_top_idx")
    .on("feature_requests")
    .columns(["app_id", "requester_end_user_id", "moderation", "vote_count", "created_at", "id", "merged_into_id"])
    .where(ownPending)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ["feature_requests_own_pending_top_idx", "feature_requests_own_pending_newest_idx", "feature_requests_listed_top_idx", "feature_requests_listed_newest_idx"]) {
    await db.schema.dropIndex(name).execute();
  }
}
