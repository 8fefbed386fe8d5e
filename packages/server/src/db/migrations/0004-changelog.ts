import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Changelog releases and their linked feature requests; email subscriptions (changelog and ship
// notifications, both double opt-in); the durable job queue that sends mail.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("changelog_entries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("version_label", "text")
    .addColumn("version_id", "text", (c) => c.references("app_versions.id").onDelete("set null"))
    // draft, scheduled or published
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("scheduled_at", "text")
    .addColumn("published_at", "text")
    .addColumn("notified_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("changelog_entries_feed_idx")
    .on("changelog_entries")
    .columns(["app_id", "status", "published_at", "id"])
    .execute();
  await db.schema.createIndex("changelog_entries_due_idx").on("changelog_entries").columns(["status", "scheduled_at"]).execute();

  await db.schema
    .createTable("changelog_entry_requests")
    .addColumn("entry_id", "text", (c) => c.notNull().references("changelog_entries.id").onDelete("cascade"))
    .addColumn("feature_request_id", "text", (c) => c.notNull().references("feature_requests.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("changelog_entry_requests_pk", ["entry_id", "feature_request_id"])
    .execute();
  await db.schema
    .createIndex("changelog_entry_requests_request_idx")
    .on("changelog_entry_requests")
    .column("feature_request_id")
    .execute();

  // One row per (app, kind, address, request): kind `changelog` (feature_request_id '') or `ship`.
  await db.schema
    .createTable("email_subscriptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("feature_request_id", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    // pending, confirmed or unsubscribed
    .addColumn("status", "text", (c) => c.notNull())
    // SHA-256 of the X-User-Token that subscribed, when one came.
    .addColumn("subscriber_token_hash", "text")
    // Nonce the confirmation link carries; cleared when used, so a link works once.
    .addColumn("confirm_nonce", "text")
    .addColumn("confirm_sent_at", "text")
    .addColumn("confirmed_at", "text")
    .addColumn("unsubscribed_at", "text")
    .addColumn("notified_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("email_subscriptions_unique", ["app_id", "kind", "feature_request_id", "email"])
    .execute();
  await db.schema.createIndex("email_subscriptions_status_idx").on("email_subscriptions").columns(["app_id", "kind", "status"]).execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    // What the job belongs to (a changelog entry id, …), for progress counts.
    .addColumn("ref_id", "text")
    // Enqueueing the same key twice makes one job: a blast restarted never mails anyone twice.
    .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
    .addColumn("payload", "text", (c) => c.notNull())
    // pending, running, done or failed
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("locked_until", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("completed_at", "text")
    .execute();
  await db.schema.createIndex("jobs_due_idx").on("jobs").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("jobs_ref_idx").on("jobs").columns(["ref_id", "status"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["jobs", "email_subscriptions", "changelog_entry_requests", "changelog_entries"]) {
    await db.schema.dropTable(table).execute();
  }
}
