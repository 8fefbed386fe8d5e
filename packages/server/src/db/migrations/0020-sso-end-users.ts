import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Sign-in from the host app: an end user signed in through SSO keeps the email and avatar the
// host's token carried (the name goes to the existing `display_name`), and an app may refuse
// writes from callers the host did not vouch for (`require_identified_users`).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("end_users").addColumn("email", "text").execute();
  await db.schema.alterTable("end_users").addColumn("avatar_url", "text").execute();
  await db.schema
    .alterTable("apps")
    .addColumn("require_identified_users", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("apps").dropColumn("require_identified_users").execute();
  await db.schema.alterTable("end_users").dropColumn("avatar_url").execute();
  await db.schema.alterTable("end_users").dropColumn("email").execute();
}
