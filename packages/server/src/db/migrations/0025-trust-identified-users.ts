import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Whether an identified caller (a valid X-User-Hash or SSO token) counts as verified at intake, so
// a signed-in user of a mobile app never solves a proof of work. On for every app, existing ones
// included: the host app already vouched for the user with the app's signing secret, as hosted
// feedback boards treat their signed-in users. Turn it off per app in the console.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("apps").addColumn("verification_trust_identified", "integer", (c) => c.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("apps").dropColumn("verification_trust_identified").execute();
}
