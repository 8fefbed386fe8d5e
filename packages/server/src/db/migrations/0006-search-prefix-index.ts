import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// SQLite only: rebuilds the FTS5 table with prefix indexes for the first one to three letters of
// a word. Every indexed word starts with a 27-character prefix naming the app and visibility
// ("x" or "z" + the 26 characters of the app id), so those are prefixes of 28 to 30 characters.
// A search for "dark mo" or "12" then reads one prefix entry instead of merging the posting
// lists of every word that starts that way. PostgreSQL needs nothing (its GIN index serves prefixes).

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

async function rebuild(db: Kysely<unknown>, options: string): Promise<void> {
  await sql.raw(`create virtual table feature_requests_fts_next using fts5(
    feature_request_id unindexed, title, body, extra, tokenize = 'unicode61 remove_diacritics 2'${options}
  )`).execute(db);
  await sql`insert into feature_requests_fts_next (rowid, feature_request_id, title, body, extra)
    select rowid, feature_request_id, title, body, extra from feature_requests_fts`.execute(db);
  await sql`drop table feature_requests_fts`.execute(db);
  await sql`alter table feature_requests_fts_next rename to feature_requests_fts`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await rebuild(db, ", prefix = '28 29 30'");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await rebuild(db, "");
}
