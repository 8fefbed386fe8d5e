import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// People sign in to the console: browser sessions (only a hash of the cookie is stored),
// invitations by link (hash of the token), and per-account failed sign-in counters.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("console_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull().references("console_users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("console_sessions_user_idx").on("console_sessions").column("user_id").execute();

  await db.schema
    .createTable("console_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("invited_by", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("accepted_at", "text")
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema.createIndex("console_invitations_workspace_idx").on("console_invitations").column("workspace_id").execute();

  // Keyed by the normalised email, whether or not such a user exists, so a lockout says nothing
  // about which addresses have accounts.
  await db.schema
    .createTable("console_login_failures")
    .addColumn("email", "text", (c) => c.primaryKey())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("first_failed_at", "text", (c) => c.notNull())
    .addColumn("locked_until", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("console_login_failures").execute();
  await db.schema.dropTable("console_invitations").execute();
  await db.schema.dropTable("console_sessions").execute();
}
