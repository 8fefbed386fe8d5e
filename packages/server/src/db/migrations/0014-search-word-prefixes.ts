import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: every word of a request's search text stored with each of its prefixes of one
// to eight letters (`search_prefixes`, a generated column) under a GIN index of the public
// requests, replacing the tsvector index of migration 0012 for public searches. A `word:*` query
// on a tsvector makes GIN collect every indexed word that starts that way and union their posting
// lists before it can intersect anything: a search for "dark mo 5" on 100k requests spent about
// 20 ms in the index. Exact keys instead are intersected in the index, rarest first, in well under
// a millisecond — the same trade as SQLite's prefix indexes (migrations 0006 and 0007). The search
// texts are already normalised and split by spaces by the application, so the words are the ones
// the SQLite index holds. SQLite needs nothing.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function search_word_prefixes(text) returns text[] language sql immutable strict parallel safe as $$
    select coalesce(array_agg(distinct left(word, n)), '{}')
    from unnest(string_to_array($1, ' ')) as word, generate_series(1, least(length(word), 8)) as n
    where word <> ''
  $$`.execute(db);
  await sql`alter table feature_requests add column search_prefixes text[] generated always as (
    search_word_prefixes(search_title || ' ' || search_body || ' ' || search_extra)
  ) stored`.execute(db);
  // Without a pending list (fastupdate): new requests go straight into the index instead of a
  // list every search must read in full until the next vacuum. With one, the planner priced the
  // index above a scan of the whole table, pending and declined requests included, so a search's
  // cost grew with the proposals waiting for review; and the list's flush landed on one unlucky
  // write. A request's words cost a few more index writes instead, well below the vote rate.
  await sql`create index feature_requests_listed_prefix_idx on feature_requests using gin (search_prefixes)
    with (fastupdate = off) where moderation = 'approved' and merged_into_id is null`.execute(db);
  await sql`drop index feature_requests_listed_search_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index feature_requests_listed_search_idx on feature_requests using gin (
    (setweight(to_tsvector('simple', search_title), 'A') || setweight(to_tsvector('simple', search_body || ' ' || search_extra), 'B'))
  ) where moderation = 'approved' and merged_into_id is null`.execute(db);
  await sql`drop index feature_requests_listed_prefix_idx`.execute(db);
  await sql`alter table feature_requests drop column search_prefixes`.execute(db);
  await sql`drop function search_word_prefixes(text)`.execute(db);
}
