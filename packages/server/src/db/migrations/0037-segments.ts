import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Segments: saved rules over end users' and companies' reported attributes (`rule`, JSON of a
// `SegmentRule`). A release may mail only one segment's subscribers (`email_segment_id`; no
// foreign key: deleting a segment a release still names is refused by the application, and
// SQLite cannot add a column with one to an existing table anyway).
// The indexes let a segment's members be read without a scan of the app's end users: by plan
// and by paying flag (newest first, with the id), by MRR, and companies by plan; companies by
// their host id already have their unique constraint, and users by company 0031's index.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("segments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("rule", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("segments_app_idx").on("segments").columns(["app_id", "name"]).execute();
  await db.schema.alterTable("changelog_entries").addColumn("email_segment_id", "text").execute();
  await db.schema.createIndex("end_users_app_plan_idx").on("end_users").columns(["app_id", "plan", "id"]).execute();
  await db.schema.createIndex("end_users_app_paying_idx").on("end_users").columns(["app_id", "is_paying", "id"]).execute();
  await db.schema.createIndex("end_users_app_mrr_idx").on("end_users").columns(["app_id", "mrr_cents"]).execute();
  await db.schema.createIndex("companies_app_plan_idx").on("companies").columns(["app_id", "plan"]).execute();
  await db.schema.createIndex("companies_app_mrr_idx").on("companies").columns(["app_id", "mrr_cents"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("companies_app_mrr_idx").execute();
  await db.schema.dropIndex("companies_app_plan_idx").execute();
  await db.schema.dropIndex("end_users_app_mrr_idx").execute();
  await db.schema.dropIndex("end_users_app_paying_idx").execute();
  await db.schema.dropIndex("end_users_app_plan_idx").execute();
  await db.schema.alterTable("changelog_entries").dropColumn("email_segment_id").execute();
  await db.schema.dropIndex("segments_app_idx").execute();
  await db.schema.dropTable("segments").execute();
}
