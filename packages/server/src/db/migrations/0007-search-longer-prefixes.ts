import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// SQLite only: rebuilds the FTS5 table with prefix indexes for the first one to eight letters of
// a word (0006 had one to three). A prefix query without an index of its length makes FTS5 merge
// the posting list of every word that starts that way before it can intersect anything: for a
// common word ("theme*", "sync*") on a board of 100k requests that took 2–6 ms of every search.
// Each indexed word starts with a 27-character prefix naming the app and visibility, so these are
// prefixes of 28 to 35 characters. The index grows by about two thirds. PostgreSQL needs nothing.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

async function rebuild(db: Kysely<unknown>, prefixes: string): Promise<void> {
  await sql.raw(`create virtual table feature_requests_fts_next using fts5(
    feature_request_id unindexed, title, body, extra, tokenize = 'unicode61 remove_diacritics 2', prefix = '${prefixes}'
  )`).execute(db);
  await sql`insert into feature_requests_fts_next (rowid, feature_request_id, title, body, extra)
    select rowid, feature_request_id, title, body, extra from feature_requests_fts`.execute(db);
  await sql`drop table feature_requests_fts`.execute(db);
  await sql`alter table feature_requests_fts_next rename to feature_requests_fts`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await rebuild(db, "28 29 30 31 32 33 34 35");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await rebuild(db, "28 29 30");
}
