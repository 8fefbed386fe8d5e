import { sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// The indexes of reported attributes (migration 0037: end users by app with plan, paying flag or
// MRR; companies by app with plan or MRR) hold only the rows that have the attribute.
//
// Every hot path finds an end user by app and token hash, through the unique index on
// (app_id, token_hash). But the attribute indexes begin with the app too, and most of their rows
// are the attribute's null: on PostgreSQL, a statement planned while the app had a few end users
// (a commit lane's `apply_votes`, a named statement of a page) could keep a generic plan that read
// the app's users through `end_users_app_mrr_idx`, the narrowest, filtering on the token hash.
// Its cost then grew with the app's users until the table was analyzed again: under 100 clients
// voting, the lookups that ran that plan read 3,500-4,900 users each, and over all connections the
// lookup took 0.48 ms of the 0.77 ms `apply_votes` spent per vote. Partial, these indexes cannot
// answer a lookup by token, so no statistics make that plan, and they are smaller. Every rule that
// reads them names the attribute (`plan in (…)`, `is_paying = 1`, `mrr_cents is not null`), which
// implies the index's condition on both engines.

const INDEXES: Array<[name: string, table: string, columns: string, column: string]> = [
  ["end_users_app_plan_idx", "end_users", "app_id, plan, id", "plan"],
  ["end_users_app_paying_idx", "end_users", "app_id, is_paying, id", "is_paying"],
  ["end_users_app_mrr_idx", "end_users", "app_id, mrr_cents", "mrr_cents"],
  ["companies_app_plan_idx", "companies", "app_id, plan", "plan"],
  ["companies_app_mrr_idx", "companies", "app_id, mrr_cents", "mrr_cents"],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, columns, column] of INDEXES) {
    await sql.raw(`drop index ${name}`).execute(db);
    await sql.raw(`create index ${name} on ${table} (${columns}) where ${column} is not null`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, columns] of INDEXES) {
    await sql.raw(`drop index ${name}`).execute(db);
    await sql.raw(`create index ${name} on ${table} (${columns})`).execute(db);
  }
}
