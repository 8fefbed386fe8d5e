import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Feature requests, votes, comments and their events; end-user attributes; human-verification
// replay protection; monthly usage counters. Full-text search is dialect-specific: an FTS5 table
// on SQLite, a GIN expression index on PostgreSQL, both over app-normalised text columns.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type] of [
    ["is_paying", "integer"],
    ["plan", "text"],
    ["mrr_cents", "integer"],
    ["currency", "text"],
    ["display_name", "text"],
    ["attributes_updated_at", "text"],
  ] as const) {
    await db.schema.alterTable("end_users").addColumn(name, type).execute();
  }

  await db.schema
    .createTable("feature_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("column_id", "text", (c) => c.references("board_columns.id").onDelete("set null"))
    .addColumn("version_id", "text", (c) => c.references("app_versions.id").onDelete("set null"))
    .addColumn("moderation", "text", (c) => c.notNull())
    .addColumn("approved_at", "text")
    .addColumn("merged_into_id", "text")
    .addColumn("requester_end_user_id", "text", (c) => c.references("end_users.id").onDelete("set null"))
    .addColumn("requester_name", "text")
    .addColumn("requester_email", "text")
    .addColumn("created_by_admin", "integer", (c) => c.notNull())
    .addColumn("vote_count", "integer", (c) => c.notNull())
    .addColumn("imported_votes", "integer", (c) => c.notNull())
    .addColumn("comment_count", "integer", (c) => c.notNull())
    .addColumn("search_title", "text", (c) => c.notNull())
    .addColumn("search_body", "text", (c) => c.notNull())
    .addColumn("search_extra", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("feature_requests_app_created_idx").on("feature_requests").columns(["app_id", "created_at", "id"]).execute();
  await db.schema.createIndex("feature_requests_app_votes_idx").on("feature_requests").columns(["app_id", "vote_count"]).execute();
  // Serves the count of an app's public requests from the index alone.
  await db.schema
    .createIndex("feature_requests_app_moderation_idx")
    .on("feature_requests")
    .columns(["app_id", "moderation", "merged_into_id", "version_id"])
    .execute();
  await db.schema.createIndex("feature_requests_column_idx").on("feature_requests").column("column_id").execute();
  await db.schema.createIndex("feature_requests_requester_idx").on("feature_requests").column("requester_end_user_id").execute();

  await db.schema
    .createTable("feature_request_votes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("feature_request_id", "text", (c) => c.notNull().references("feature_requests.id").onDelete("cascade"))
    .addColumn("end_user_id", "text", (c) => c.notNull().references("end_users.id").onDelete("cascade"))
    .addColumn("ship_notify_email", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("feature_request_votes_unique", ["feature_request_id", "end_user_id"])
    .execute();
  await db.schema.createIndex("feature_request_votes_user_idx").on("feature_request_votes").column("end_user_id").execute();
  await db.schema
    .createIndex("feature_request_votes_recent_idx")
    .on("feature_request_votes")
    .columns(["feature_request_id", "created_at"])
    .execute();

  await db.schema
    .createTable("feature_request_comments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("feature_request_id", "text", (c) => c.notNull().references("feature_requests.id").onDelete("cascade"))
    .addColumn("end_user_id", "text", (c) => c.references("end_users.id").onDelete("set null"))
    .addColumn("team_user_id", "text", (c) => c.references("console_users.id").onDelete("set null"))
    .addColumn("author_name", "text")
    .addColumn("author_email", "text")
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("parent_id", "text")
    .addColumn("reply_to_author_name", "text")
    .addColumn("is_team", "integer", (c) => c.notNull())
    .addColumn("is_hidden", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("feature_request_comments_thread_idx")
    .on("feature_request_comments")
    .columns(["feature_request_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("feature_request_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("feature_request_id", "text", (c) => c.notNull())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("actor", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("feature_request_events_app_idx").on("feature_request_events").columns(["app_id", "created_at"]).execute();
  await db.schema.createIndex("feature_request_events_request_idx").on("feature_request_events").column("feature_request_id").execute();

  await db.schema
    .createTable("verification_tokens_used")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("workspace_usage")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("submissions", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("workspace_usage_pk", ["workspace_id", "month"])
    .execute();

  if (isPostgres(db)) {
    await sql`create index feature_requests_search_idx on feature_requests using gin (
      (setweight(to_tsvector('simple', search_title), 'A') || setweight(to_tsvector('simple', search_body || ' ' || search_extra), 'B'))
    )`.execute(db);
  } else {
    // Every word is stored with a prefix naming the app and whether the public may see the
    // request (see feature-requests/search-text.ts), so a public search is answered by the index.
    await sql`create virtual table feature_requests_fts using fts5(
      feature_request_id unindexed, title, body, extra, tokenize = 'unicode61 remove_diacritics 2'
    )`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await sql`drop table feature_requests_fts`.execute(db);
  for (const table of [
    "workspace_usage",
    "verification_tokens_used",
    "feature_request_events",
    "feature_request_comments",
    "feature_request_votes",
    "feature_requests",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
