import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// GitHub sync: one connection per app (a repository, the token that reaches it, the secret
// GitHub signs its webhooks with, and which column an issue's close, reopen or label moves the
// request to); one link per request to one issue of that repository, with what the demand block
// in the issue last said; and the webhook deliveries already received, so a redelivery is
// recognised and ignored.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("github_connections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().unique().references("apps.id").onDelete("cascade"))
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("repo", "text", (c) => c.notNull())
    // A fine-grained personal access token, needed in clear to call GitHub; never shown again.
    .addColumn("token", "text", (c) => c.notNull())
    .addColumn("token_hint", "text", (c) => c.notNull())
    .addColumn("webhook_secret", "text", (c) => c.notNull())
    .addColumn("api_base_url", "text", (c) => c.notNull())
    // Column ids; null means the default (closed: the app's first done column; reopened: no move).
    .addColumn("closed_column_id", "text")
    .addColumn("reopened_column_id", "text")
    // JSON array of {label, columnId}
    .addColumn("label_columns", "text", (c) => c.notNull())
    // active or broken
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("broken_reason", "text")
    .addColumn("broken_at", "text")
    // GitHub's rate limit: no call before this time.
    .addColumn("paused_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("github_issue_links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("connection_id", "text", (c) => c.notNull().references("github_connections.id").onDelete("cascade"))
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("feature_request_id", "text", (c) => c.notNull().unique().references("feature_requests.id").onDelete("cascade"))
    .addColumn("issue_number", "integer", (c) => c.notNull())
    .addColumn("issue_url", "text", (c) => c.notNull())
    .addColumn("issue_title", "text", (c) => c.notNull())
    // open or closed, as last seen
    .addColumn("issue_state", "text", (c) => c.notNull())
    // What the demand block said when last written (null: never written).
    .addColumn("pushed_votes", "integer")
    .addColumn("pushed_comments", "integer")
    .addColumn("pushed_at", "text")
    // Why the block is no longer kept (the issue is gone), or null.
    .addColumn("sync_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("github_issue_links_issue_idx").on("github_issue_links").columns(["connection_id", "issue_number"]).unique().execute();

  await db.schema
    .createTable("github_webhook_deliveries")
    .addColumn("connection_id", "text", (c) => c.notNull().references("github_connections.id").onDelete("cascade"))
    .addColumn("delivery_id", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("github_webhook_deliveries_pk", ["connection_id", "delivery_id"])
    .execute();
  await db.schema.createIndex("github_webhook_deliveries_received_idx").on("github_webhook_deliveries").column("received_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["github_webhook_deliveries", "github_issue_links", "github_connections"]) await db.schema.dropTable(table).execute();
}
