import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// `workspace_usage_spread`: submissions of a month counted in several rows per workspace. Every
// submission used to update the workspace's one row of the month and hold its lock to the
// commit, so on PostgreSQL a workspace's proposals went one at a time. A submission to a
// workspace without a quota may count itself in one of these rows (`shard`, picked at random),
// since no limit has to be checked against a single row then. A month's submissions are the
// workspace's `workspace_usage` row plus these; the quota's guard on that row adds these too.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("workspace_usage_spread")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("shard", "integer", (c) => c.notNull())
    .addColumn("submissions", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("workspace_usage_spread_pk", ["workspace_id", "month", "shard"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("workspace_usage_spread").execute();
}
