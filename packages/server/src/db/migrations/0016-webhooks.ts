import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Outbound webhooks: per-app endpoints (signed Standard Webhooks JSON, or Slack/Discord
// messages), one delivery per event and endpoint (the event as recorded in the write's
// transaction), and every HTTP attempt of a delivery for the console's delivery log.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    // standard, slack or discord
    .addColumn("format", "text", (c) => c.notNull())
    // JSON array of event types
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    // whsec_ + base64 of 24 random bytes; needed in clear to sign
    .addColumn("secret", "text", (c) => c.notNull())
    // Deliveries in a row that failed every attempt; the endpoint is disabled after a run of them.
    .addColumn("consecutive_failures", "integer", (c) => c.notNull())
    .addColumn("disabled_reason", "text")
    .addColumn("disabled_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_endpoints_app_idx").on("webhook_endpoints").columns(["app_id", "enabled"]).execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("endpoint_id", "text", (c) => c.notNull().references("webhook_endpoints.id").onDelete("cascade"))
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("event_type", "text", (c) => c.notNull())
    // The event as recorded (JSON); each format renders its body from it.
    .addColumn("event", "text", (c) => c.notNull())
    // pending, delivered, failed or cancelled
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempt_count", "integer", (c) => c.notNull())
    .addColumn("next_attempt_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_deliveries_endpoint_idx").on("webhook_deliveries").columns(["endpoint_id", "id"]).execute();

  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("delivery_id", "text", (c) => c.notNull().references("webhook_deliveries.id").onDelete("cascade"))
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("at", "text", (c) => c.notNull())
    // success, http_error, network_error, timeout or refused
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("latency_ms", "integer", (c) => c.notNull())
    .addColumn("excerpt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_attempts_delivery_idx").on("webhook_attempts").columns(["delivery_id", "attempt"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["webhook_attempts", "webhook_deliveries", "webhook_endpoints"]) await db.schema.dropTable(table).execute();
}
