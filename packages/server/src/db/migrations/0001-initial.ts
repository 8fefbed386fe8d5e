import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// The schema builder is called with snake_case names because migrations run without the
// CamelCasePlugin, so that what is on disk never depends on a plugin's behaviour.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("workspaces")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("plan", "text", (c) => c.notNull())
    .addColumn("subscription_status", "text", (c) => c.notNull())
    .addColumn("monthly_submission_quota", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("console_users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("display_name", "text")
    .addColumn("password_hash", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("memberships")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("console_users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("memberships_workspace_user_unique", ["workspace_id", "user_id"])
    .execute();
  await db.schema.createIndex("memberships_user_idx").on("memberships").column("user_id").execute();

  await db.schema
    .createTable("api_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("console_users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .addColumn("revoked_at", "text")
    .execute();

  await db.schema
    .createTable("apps")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("app_key", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("signing_secret", "text", (c) => c.notNull())
    .addColumn("store_url", "text")
    .addColumn("store_kind", "text")
    .addColumn("app_store_url", "text")
    .addColumn("google_play_url", "text")
    .addColumn("website_url", "text")
    .addColumn("icon_url", "text")
    .addColumn("hide_site_branding", "integer", (c) => c.notNull())
    .addColumn("allowed_embed_origins", "text", (c) => c.notNull())
    .addColumn("allow_public", "integer", (c) => c.notNull())
    .addColumn("allow_anonymous_roadmap", "integer", (c) => c.notNull())
    .addColumn("allow_anonymous_vote", "integer", (c) => c.notNull())
    .addColumn("allow_anonymous_feedback", "integer", (c) => c.notNull())
    .addColumn("allow_anonymous_changelog", "integer", (c) => c.notNull())
    .addColumn("allowed_platforms", "text", (c) => c.notNull())
    .addColumn("max_attachment_bytes", "integer", (c) => c.notNull())
    .addColumn("moderation_policy", "text", (c) => c.notNull())
    .addColumn("sdk", "text", (c) => c.notNull())
    .addColumn("verification_provider", "text", (c) => c.notNull())
    .addColumn("verification_site_key", "text")
    .addColumn("verification_secret", "text")
    .addColumn("verification_exempt", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("apps_workspace_slug_unique", ["workspace_id", "slug"])
    .execute();

  await db.schema
    .createTable("board_columns")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("is_visible", "integer", (c) => c.notNull())
    .addColumn("is_system", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("color", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("board_columns_app_slug_unique", ["app_id", "slug"])
    .execute();

  await db.schema
    .createTable("app_versions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("released", "integer", (c) => c.notNull())
    .addColumn("released_at", "text")
    .addColumn("description", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("app_versions_app_idx").on("app_versions").column("app_id").execute();

  await db.schema
    .createTable("end_users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull())
    .addColumn("public_id", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addUniqueConstraint("end_users_app_token_unique", ["app_id", "token_hash"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "end_users",
    "app_versions",
    "board_columns",
    "apps",
    "api_tokens",
    "memberships",
    "console_users",
    "workspaces",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
