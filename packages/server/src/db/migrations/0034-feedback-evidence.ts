import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Feedback as evidence, votes on behalf. A submission may be linked to one feature request of its
// app (`feature_request_id`, no foreign key: a deleted request unlinks nothing it cannot find, and
// the console reads the link through a join). A vote records who added it when it was not the
// voter: `added_by` is the console user who voted on the customer's behalf, `note` what they
// wrote; `source_submission_id` is the linked feedback whose link added the vote, so unlinking
// removes that vote and no other (a vote the voter cast themselves has it null).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("submissions").addColumn("feature_request_id", "text").execute();
  await db.schema.alterTable("submissions").addColumn("linked_at", "text").execute();
  await db.schema.createIndex("submissions_feature_request_idx").on("submissions").column("feature_request_id").execute();
  await db.schema.alterTable("feature_request_votes").addColumn("added_by", "text").execute();
  await db.schema.alterTable("feature_request_votes").addColumn("note", "text").execute();
  await db.schema.alterTable("feature_request_votes").addColumn("source_submission_id", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("feature_request_votes").dropColumn("source_submission_id").execute();
  await db.schema.alterTable("feature_request_votes").dropColumn("note").execute();
  await db.schema.alterTable("feature_request_votes").dropColumn("added_by").execute();
  await db.schema.dropIndex("submissions_feature_request_idx").execute();
  await db.schema.alterTable("submissions").dropColumn("linked_at").execute();
  await db.schema.alterTable("submissions").dropColumn("feature_request_id").execute();
}
