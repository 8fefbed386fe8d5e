import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// What `tidings import` brought in: one row per imported request or comment, naming the product
// it came from (`csv`, `canny`, `fider`, …) and its id there. Running the same import again looks
// rows up here and skips them, so a re-run changes nothing. Rows go with their app.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("import_sources")
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("source_id", "text", (c) => c.notNull())
    .addColumn("local_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("import_sources_pkey", ["app_id", "source", "kind", "source_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("import_sources").execute();
}
