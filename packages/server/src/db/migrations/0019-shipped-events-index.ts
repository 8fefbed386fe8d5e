import { sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// The portal's "shipped" feeds read an app's `shipped` events newest first; on a busy board those
// are few among many `moved`, `edited` and `created` events, so they get a partial index of their own.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("feature_request_events_shipped_idx")
    .on("feature_request_events")
    .columns(["app_id", "created_at"])
    .where(sql.ref("type"), "=", sql.lit("shipped"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("feature_request_events_shipped_idx").execute();
}
