import { sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Custom fields: per-app (or per-board) fields the team asks for on the proposal and feedback
// forms. A definition is never deleted while values may exist, only archived, so a stored value
// always finds its field. Values live on the request and the submission themselves, one JSON
// object keyed by field id ('{}' when none): they are written with the row, read with it, and
// renaming a field (or its key) touches no value. A key is unique among an app's active fields
// only, so an archived field's key can be given to a new one.
// board_id has no foreign key, like feature_requests.board_id: a board's fields are archived
// when it is deleted and keep the id, which a restore must replace.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("custom_fields")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("board_id", "text")
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("required", "integer", (c) => c.notNull())
    .addColumn("applies_to", "text", (c) => c.notNull())
    .addColumn("options", "text", (c) => c.notNull())
    .addColumn("limits", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("archived", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("custom_fields_app_idx").on("custom_fields").columns(["app_id", "archived", "position"]).execute();
  await db.schema.createIndex("custom_fields_active_key_idx").on("custom_fields").columns(["app_id", "key"]).unique().where(sql.ref("archived"), "=", 0).execute();

  await db.schema.alterTable("feature_requests").addColumn("custom_fields", "text", (c) => c.notNull().defaultTo("{}")).execute();
  await db.schema.alterTable("submissions").addColumn("custom_fields", "text", (c) => c.notNull().defaultTo("{}")).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("submissions").dropColumn("custom_fields").execute();
  await db.schema.alterTable("feature_requests").dropColumn("custom_fields").execute();
  await db.schema.dropTable("custom_fields").execute();
}
