import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Console API tokens get a scope and, optionally, a workspace. `read` tokens may only read;
// `read-write` tokens do what their user's role allows, as every token did before, so the tokens
// that exist keep working unchanged. A token bound to a workspace reaches that workspace alone
// (and goes with it); a token without one reaches every workspace its user belongs to.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("api_tokens").addColumn("scope", "text", (c) => c.notNull().defaultTo("read-write")).execute();
  await db.schema
    .alterTable("api_tokens")
    .addColumn("workspace_id", "text", (c) => c.references("workspaces.id").onDelete("cascade"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("api_tokens").dropColumn("workspace_id").execute();
  await db.schema.alterTable("api_tokens").dropColumn("scope").execute();
}
