import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Companies: the accounts an app's end users belong to, as the host reports them (signed
// attributes or the SSO token's `company` claim). `external_id` is the host's id, unique in the
// app. MRR is kept in hundredths of the currency unit, as `end_users.mrr_cents` is, but in a
// bigint: a company may pay more than an int4 of cents. `reported_at` (epoch seconds of the
// signature or of the token's `iat`) orders reports, so an older token still held by a page does
// not undo a newer report; `end_users.company_reported_at` does the same for membership.
// `end_users.company_id` has no foreign key (SQLite cannot drop such a column again): a company
// is only ever deleted with its app, which takes its end users along.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("companies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("external_id", "text", (c) => c.notNull())
    .addColumn("name", "text")
    .addColumn("mrr_cents", "bigint")
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("plan", "text")
    .addColumn("attributes", "text", (c) => c.notNull())
    .addColumn("reported_at", "bigint", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("companies_app_external_unique", ["app_id", "external_id"])
    .execute();

  await db.schema.alterTable("end_users").addColumn("company_id", "text").execute();
  await db.schema.alterTable("end_users").addColumn("company_reported_at", "bigint").execute();
  await db.schema.createIndex("end_users_company_idx").on("end_users").column("company_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("end_users_company_idx").execute();
  await db.schema.alterTable("end_users").dropColumn("company_reported_at").execute();
  await db.schema.alterTable("end_users").dropColumn("company_id").execute();
  await db.schema.dropTable("companies").execute();
}
