import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Votes by time, for `trending`: the votes of the last days are read from this index and joined
// to their requests, instead of counting each request's recent votes across a whole board. New
// votes append at its end, so a vote dirties one more page at most.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("feature_request_votes_created_idx")
    .on("feature_request_votes")
    .columns(["created_at", "feature_request_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("feature_request_votes_created_idx").execute();
}
