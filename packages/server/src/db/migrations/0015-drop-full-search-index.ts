import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: drops the GIN index over to_tsvector of every request (migration 0002), which
// no query reads since public searches use the word-prefix index of migration 0014 and a
// viewer's own pending matches are read from their own rows. It was not free: `vote_count` is
// indexed, so every vote writes a new version of its request's row, and each new version
// recomputed both to_tsvector calls and inserted all their words into this index. SQLite's FTS5
// table is its only search index and stays.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`drop index feature_requests_search_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index feature_requests_search_idx on feature_requests using gin (
    (setweight(to_tsvector('simple', search_title), 'A') || setweight(to_tsvector('simple', search_body || ' ' || search_extra), 'B'))
  )`.execute(db);
}
