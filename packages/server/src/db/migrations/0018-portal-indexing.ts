import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Whether search engines may index an app's public portal (robots meta, sitemap.xml). Off for
// every app, existing ones included: a public board reached only through its link stays out of
// search results until its team opts in.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("apps").addColumn("portal_indexable", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("apps").dropColumn("portal_indexable").execute();
}
