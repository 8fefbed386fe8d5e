import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// The duplicates queue remembers the pairs the team marked "not a duplicate", so they never come
// back. A pair is stored once, the smaller id first; both ids cascade with their request. The
// queue looks up a page's requests by either side: the primary key serves the first, the index
// the second.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("duplicate_dismissals")
    .addColumn("first_id", "text", (c) => c.notNull().references("feature_requests.id").onDelete("cascade"))
    .addColumn("second_id", "text", (c) => c.notNull().references("feature_requests.id").onDelete("cascade"))
    .addColumn("dismissed_by", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("duplicate_dismissals_pkey", ["first_id", "second_id"])
    .execute();
  await db.schema.createIndex("duplicate_dismissals_second_idx").on("duplicate_dismissals").columns(["second_id", "first_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("duplicate_dismissals").execute();
}
