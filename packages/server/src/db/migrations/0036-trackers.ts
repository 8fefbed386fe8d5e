import { sql, type Kysely } from "kysely";
import { up as githubTables } from "./0033-github.js";
import { up as linearTables } from "./0035-linear.js";

// Frozen: never import application code here, never edit after release; add a new migration.
// Issue trackers (GitHub, Linear) share one set of tables instead of one per tracker: one
// connection per app and tracker, one link per request and tracker, one table of webhook
// deliveries already received. What differs between trackers lives in two columns of the
// connection: `target` (GitHub: `owner/repo`; Linear: the team id) and `mapping` (JSON: which
// column each tracker event moves a request to). A GitHub connection reaches its repository
// either with a token (`credential`) or as a GitHub App installation (the app's id, its private
// key and the installation's id). Every row of 0033's and 0035's tables moves over with its id,
// so the webhook URLs given to GitHub and Linear, and queued jobs naming a link, keep working.

async function rows(db: Kysely<unknown>, table: string): Promise<Record<string, unknown>[]> {
  return (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
}

const int = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("tracker_connections")
    .addColumn("id", "text", (c) => c.primaryKey())
    // github or linear
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("target", "text", (c) => c.notNull())
    // A token or API key, needed in clear to call the tracker; never shown again. Null for a GitHub App installation.
    .addColumn("credential", "text")
    .addColumn("credential_hint", "text")
    .addColumn("github_app_id", "text")
    .addColumn("github_private_key", "text")
    .addColumn("github_installation_id", "text")
    .addColumn("webhook_secret", "text", (c) => c.notNull())
    .addColumn("api_url", "text", (c) => c.notNull())
    // JSON: the tracker's column mapping.
    .addColumn("mapping", "text", (c) => c.notNull())
    // active or broken
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("broken_reason", "text")
    .addColumn("broken_at", "text")
    // The tracker's rate limit: no call before this time.
    .addColumn("paused_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("tracker_connections_app_provider_key", ["app_id", "provider"])
    .execute();

  await db.schema
    .createTable("tracker_issue_links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("connection_id", "text", (c) => c.notNull().references("tracker_connections.id").onDelete("cascade"))
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("feature_request_id", "text", (c) => c.notNull().references("feature_requests.id").onDelete("cascade"))
    // The tracker's id of the issue (GitHub: its number; Linear: its UUID) and how people name it (#42, ENG-123).
    .addColumn("issue_id", "text", (c) => c.notNull())
    .addColumn("issue_key", "text", (c) => c.notNull())
    .addColumn("issue_url", "text", (c) => c.notNull())
    .addColumn("issue_title", "text", (c) => c.notNull())
    // The issue's state as last seen (GitHub: open, closed; Linear: the workflow state's type), or null.
    .addColumn("issue_state", "text")
    // What the demand block said when last written (null: never written).
    .addColumn("pushed_votes", "integer")
    .addColumn("pushed_comments", "integer")
    .addColumn("pushed_at", "text")
    // Why the block is no longer kept (the issue is gone), or null.
    .addColumn("sync_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("tracker_issue_links_request_provider_key", ["feature_request_id", "provider"])
    .execute();
  await db.schema.createIndex("tracker_issue_links_issue_idx").on("tracker_issue_links").columns(["connection_id", "issue_id"]).unique().execute();

  await db.schema
    .createTable("tracker_webhook_deliveries")
    .addColumn("connection_id", "text", (c) => c.notNull().references("tracker_connections.id").onDelete("cascade"))
    .addColumn("delivery_id", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("tracker_webhook_deliveries_pk", ["connection_id", "delivery_id"])
    .execute();
  await db.schema.createIndex("tracker_webhook_deliveries_received_idx").on("tracker_webhook_deliveries").column("received_at").execute();

  const common = (r: Record<string, unknown>) => ({
    webhook_secret: r.webhook_secret,
    status: r.status,
    broken_reason: r.broken_reason,
    broken_at: r.broken_at,
    paused_until: r.paused_until,
    created_at: r.created_at,
    updated_at: r.updated_at,
  });
  const connections = [
    ...(await rows(db, "github_connections")).map((r) => ({
      id: r.id,
      provider: "github",
      app_id: r.app_id,
      target: `${String(r.owner)}/${String(r.repo)}`,
      credential: r.token,
      credential_hint: r.token_hint,
      api_url: r.api_base_url,
      mapping: JSON.stringify({ closedColumnId: r.closed_column_id, reopenedColumnId: r.reopened_column_id, labelColumns: JSON.parse(String(r.label_columns)) as unknown }),
      ...common(r),
    })),
    ...(await rows(db, "linear_connections")).map((r) => ({
      id: r.id,
      provider: "linear",
      app_id: r.app_id,
      target: r.team_id,
      credential: r.api_key,
      credential_hint: r.key_hint,
      api_url: r.api_url,
      mapping: JSON.stringify({ completedColumnId: r.completed_column_id, startedColumnId: r.started_column_id, canceledColumnId: r.canceled_column_id }),
      ...common(r),
    })),
  ];
  const linkOf = (r: Record<string, unknown>) => ({
    id: r.id,
    connection_id: r.connection_id,
    app_id: r.app_id,
    feature_request_id: r.feature_request_id,
    issue_url: r.issue_url,
    issue_title: r.issue_title,
    issue_state: r.issue_state,
    pushed_votes: int(r.pushed_votes),
    pushed_comments: int(r.pushed_comments),
    pushed_at: r.pushed_at,
    sync_error: r.sync_error,
    created_at: r.created_at,
    updated_at: r.updated_at,
  });
  const links = [
    ...(await rows(db, "github_issue_links")).map((r) => ({ ...linkOf(r), provider: "github", issue_id: String(r.issue_number), issue_key: `#${String(r.issue_number)}` })),
    ...(await rows(db, "linear_issue_links")).map((r) => ({ ...linkOf(r), provider: "linear", issue_id: r.issue_id, issue_key: r.issue_identifier })),
  ];
  const deliveries = [
    ...(await rows(db, "github_webhook_deliveries")).map((r) => ({ connection_id: r.connection_id, delivery_id: r.delivery_id, event: r.event, received_at: r.received_at })),
    ...(await rows(db, "linear_webhook_deliveries")).map((r) => ({ connection_id: r.connection_id, delivery_id: r.delivery_id, event: "Issue", received_at: r.received_at })),
  ];
  const untyped = db as Kysely<Record<string, Record<string, unknown>>>;
  for (const [table, values] of [["tracker_connections", connections], ["tracker_issue_links", links], ["tracker_webhook_deliveries", deliveries]] as const) {
    for (let i = 0; i < values.length; i += 200) await untyped.insertInto(table).values(values.slice(i, i + 200)).execute();
  }

  for (const table of ["github_webhook_deliveries", "github_issue_links", "github_connections", "linear_webhook_deliveries", "linear_issue_links", "linear_connections"]) {
    await db.schema.dropTable(table).execute();
  }
}

// Going back gives 0033's and 0035's tables again, empty: connections are made anew.
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["tracker_webhook_deliveries", "tracker_issue_links", "tracker_connections"]) await db.schema.dropTable(table).execute();
  await githubTables(db);
  await linearTables(db);
}
