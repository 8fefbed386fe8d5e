import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Linear sync: one connection per app (a team, the API key that reaches it, the secret Linear
// signs its webhooks with, and which column each workflow state type moves a request to); one
// link per request to one issue of that team, with what the demand block in the issue's
// description last said; and the webhook deliveries already received, so a replay is ignored.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("linear_connections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().unique().references("apps.id").onDelete("cascade"))
    .addColumn("team_id", "text", (c) => c.notNull())
    // A personal API key, needed in clear to call Linear; never shown again.
    .addColumn("api_key", "text", (c) => c.notNull())
    .addColumn("key_hint", "text", (c) => c.notNull())
    // The signing secret Linear shows for the webhook.
    .addColumn("webhook_secret", "text", (c) => c.notNull())
    .addColumn("api_url", "text", (c) => c.notNull())
    // Column ids; null means the default (completed: the first done column; started, canceled: no move).
    .addColumn("completed_column_id", "text")
    .addColumn("started_column_id", "text")
    .addColumn("canceled_column_id", "text")
    // active or broken
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("broken_reason", "text")
    .addColumn("broken_at", "text")
    // Linear's rate limit: no call before this time.
    .addColumn("paused_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("linear_issue_links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("connection_id", "text", (c) => c.notNull().references("linear_connections.id").onDelete("cascade"))
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("feature_request_id", "text", (c) => c.notNull().unique().references("feature_requests.id").onDelete("cascade"))
    // Linear's issue id (a UUID) and its readable identifier (ENG-123).
    .addColumn("issue_id", "text", (c) => c.notNull())
    .addColumn("issue_identifier", "text", (c) => c.notNull())
    .addColumn("issue_url", "text", (c) => c.notNull())
    .addColumn("issue_title", "text", (c) => c.notNull())
    // The workflow state's type as last seen (backlog, unstarted, started, completed, canceled), or null.
    .addColumn("issue_state", "text")
    .addColumn("pushed_votes", "integer")
    .addColumn("pushed_comments", "integer")
    .addColumn("pushed_at", "text")
    .addColumn("sync_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("linear_issue_links_issue_idx").on("linear_issue_links").columns(["connection_id", "issue_id"]).unique().execute();

  await db.schema
    .createTable("linear_webhook_deliveries")
    .addColumn("connection_id", "text", (c) => c.notNull().references("linear_connections.id").onDelete("cascade"))
    .addColumn("delivery_id", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("linear_webhook_deliveries_pk", ["connection_id", "delivery_id"])
    .execute();
  await db.schema.createIndex("linear_webhook_deliveries_received_idx").on("linear_webhook_deliveries").column("received_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["linear_webhook_deliveries", "linear_issue_links", "linear_connections"]) await db.schema.dropTable(table).execute();
}
