import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Tags: per-app labels the team manages (name, slug, colour, public or team-only), any number per
// request. A request's tags are read by request (the primary key); a tag's requests by tag, in
// the second index, which also serves "every request carrying all of these tags".

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("tags")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("color", "text")
    .addColumn("visibility", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("tags_app_slug_key", ["app_id", "slug"])
    .execute();
  await db.schema
    .createTable("feature_request_tags")
    .addColumn("feature_request_id", "text", (c) => c.notNull().references("feature_requests.id").onDelete("cascade"))
    .addColumn("tag_id", "text", (c) => c.notNull().references("tags.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("feature_request_tags_pkey", ["feature_request_id", "tag_id"])
    .execute();
  await db.schema.createIndex("feature_request_tags_tag_idx").on("feature_request_tags").columns(["tag_id", "feature_request_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("feature_request_tags").execute();
  await db.schema.dropTable("tags").execute();
}
