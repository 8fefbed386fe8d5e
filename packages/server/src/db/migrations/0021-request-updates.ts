import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Closing the loop with voters. A person follows a request through an `email_subscriptions` row
// of kind `request` (no schema change: the kind is free text). What happens to a followed request
// (moved, a team reply, shipped) becomes one `request_update_notices` row per follower, written
// in the transaction of the change; an hourly digest job per address turns a batch of them into
// one mail and stamps `sent_at`. `dedupe_key` keeps a shipped request from being announced twice.
// `notification_preferences` holds what an address wants to hear about, per app.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("request_update_notices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("subscription_id", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("feature_request_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema
    .createIndex("request_update_notices_unsent_idx")
    .on("request_update_notices")
    .columns(["app_id", "email", "sent_at", "created_at"])
    .execute();
  await db.schema
    .createTable("notification_preferences")
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("moves", "integer", (c) => c.notNull())
    .addColumn("replies", "integer", (c) => c.notNull())
    .addColumn("ships", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("notification_preferences_pkey", ["app_id", "email"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("notification_preferences").execute();
  await db.schema.dropTable("request_update_notices").execute();
}
