import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: a voter's votes are indexed by voter and request, not by voter alone.
//
// A signed-in reader's page reads their votes among its requests by voter and a range of request
// ids (`pageViewers`). With an index on the voter alone, PostgreSQL read that range from the
// primary key (request, voter) instead: every vote anyone cast on the page's requests, to keep
// the reader's. A `top` page's requests are the most voted, so the read grew with the votes the
// board took: after five minutes of the held load, about 24,000 of them, 6 ms for each page where
// a board without them took 0.05 ms. This index reads exactly the reader's votes in the range. On
// SQLite the voter index of migration 0010 already holds each vote's request (the table is
// WITHOUT ROWID, keyed by request and voter), so there it reads the same way. It replaces the
// voter index, which it serves too.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index if not exists feature_request_votes_voter_idx on feature_request_votes (end_user_id, feature_request_id)`.execute(db);
  await sql`drop index if exists feature_request_votes_user_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index if not exists feature_request_votes_user_idx on feature_request_votes (end_user_id)`.execute(db);
  await sql`drop index if exists feature_request_votes_voter_idx`.execute(db);
}
