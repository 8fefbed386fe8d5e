import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: the search index of migration 0002 again, holding the public requests alone
// (approved, not merged). A search of the public list matched every request of the app through
// the full index, pending and declined ones included, and threw those away afterwards, so its
// cost grew with the proposals waiting for review. SQLite needs nothing: its words carry a prefix
// naming the app and the visibility (migration 0002), so a public search matches public rows only.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index feature_requests_listed_search_idx on feature_requests using gin (
    (setweight(to_tsvector('simple', search_title), 'A') || setweight(to_tsvector('simple', search_body || ' ' || search_extra), 'B'))
  ) where moderation = 'approved' and merged_into_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`drop index feature_requests_listed_search_idx`.execute(db);
}
