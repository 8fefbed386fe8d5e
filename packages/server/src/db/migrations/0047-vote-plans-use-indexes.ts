import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: the vote functions (`apply_votes`, `apply_votes_each`, `apply_votes_alone`,
// migrations 0023, 0040 and 0042) plan without sequential scans.
//
// Each statement of a PL/pgSQL function keeps, per connection, the generic plan it made on its
// sixth run, until the statistics of its tables change. A commit lane's connection that made its
// plans while `end_users` held a few rows kept reading the voter as a scan of the whole table
// (cheapest for one page), and went on scanning it as thousands of voters were added, until
// autovacuum analyzed the table: in the feature-request bench, one lane in four scanned 5,000
// voters for each vote for most of a minute. Every statement of these functions reads or writes
// rows by a key that has an index, so none of them should ever scan a table; with
// `enable_seqscan` off for the functions (and the triggers they fire), a plan made on a small
// table uses the index as well.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const SIGNATURE = "text[], text[], text[], text[], text[], text[], boolean[], boolean[], text[], text[], text[], text[]";
const FUNCTIONS = ["apply_votes", "apply_votes_each", "apply_votes_alone"];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const fn of FUNCTIONS) await sql.raw(`alter function ${fn}(${SIGNATURE}) set enable_seqscan = off`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const fn of FUNCTIONS) await sql.raw(`alter function ${fn}(${SIGNATURE}) reset enable_seqscan`).execute(db);
}
