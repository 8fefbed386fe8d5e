import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// The `Idempotency-Key` of public POSTs: one row per caller scope and key. A row is reserved
// (`pending`) before the request runs, marked `written` inside the transaction of its write, and
// holds the answer (`done`) once it is sent. Only hashes of the scope (app key, user token, route)
// and of the key are kept; the answer body is encrypted with a key derived from the raw
// Idempotency-Key, so the table alone replays nothing. Rows live 24 hours (`expires_at`).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("idempotency_keys")
    .addColumn("scope_hash", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("attempt", "text", (c) => c.notNull())
    .addColumn("locked_at", "text", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("response_headers", "text")
    .addColumn("response_body", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pkey", ["scope_hash", "key_hash"])
    .execute();
  await db.schema.createIndex("idempotency_keys_expires_idx").on("idempotency_keys").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("idempotency_keys").execute();
}
