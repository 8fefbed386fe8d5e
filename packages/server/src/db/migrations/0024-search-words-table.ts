import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: the word prefixes of public requests (migration 0014) move from a generated
// column of `feature_requests`, under a GIN index of that table, to a table of their own. Every
// vote moves its request's `vote_count`, which is indexed, so each vote wrote a new version of
// the request's row, and the GIN index took an entry for every one of the row's forty-odd
// prefixes: on the bench's board that was half of what PostgreSQL spent on a vote (0.29 of
// 0.62 ms). In their own table the prefixes are written only when the words or the request's
// visibility change. Triggers keep them, so every write path stays current without code of its
// own: new requests once per insert statement (an import inserts thousands in one), and a change
// of the search texts, the moderation state or the merge per row. The table holds the public
// requests only (approved, not merged), as the partial index did. It holds no vote count: kept
// there by a trigger, each vote wrote the wide row again (and, when the page had no room left,
// all its GIN entries), which cost as much as it saved.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table feature_request_search (
    feature_request_id text primary key references feature_requests (id) on delete cascade,
    prefixes text[] not null
  )`.execute(db);
  // Without a pending list, as in migration 0014: a new request is in the index at once.
  await sql`create index feature_request_search_prefix_idx on feature_request_search using gin (prefixes) with (fastupdate = off)`.execute(db);
  await sql`create function feature_request_search_sync() returns trigger language plpgsql as $fn$
begin
  if new.moderation = 'approved' and new.merged_into_id is null then
    insert into feature_request_search as s (feature_request_id, prefixes)
    values (new.id, search_word_prefixes(new.search_title || ' ' || new.search_body || ' ' || new.search_extra))
    on conflict (feature_request_id) do update set prefixes = excluded.prefixes
    where s.prefixes is distinct from excluded.prefixes;
  else
    delete from feature_request_search where feature_request_id = new.id;
  end if;
  return null;
end
$fn$`.execute(db);
  await sql`create function feature_request_search_insert() returns trigger language plpgsql as $fn$
begin
  insert into feature_request_search (feature_request_id, prefixes)
  select id, search_word_prefixes(search_title || ' ' || search_body || ' ' || search_extra)
  from inserted where moderation = 'approved' and merged_into_id is null;
  return null;
end
$fn$`.execute(db);
  // New requests once per statement (an import inserts thousands in one), updates per row.
  await sql`create trigger feature_request_search_insert
    after insert on feature_requests referencing new table as inserted
    for each statement execute function feature_request_search_insert()`.execute(db);
  // Column-listed: an update that sets none of them (a vote, a comment count) does not fire it.
  await sql`create trigger feature_request_search_sync
    after update of search_title, search_body, search_extra, moderation, merged_into_id on feature_requests
    for each row execute function feature_request_search_sync()`.execute(db);
  await sql`insert into feature_request_search (feature_request_id, prefixes)
    select id, search_prefixes from feature_requests where moderation = 'approved' and merged_into_id is null`.execute(db);
  await sql`analyze feature_request_search`.execute(db);
  await sql`drop index feature_requests_listed_prefix_idx`.execute(db);
  await sql`alter table feature_requests drop column search_prefixes`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table feature_requests add column search_prefixes text[] generated always as (
    search_word_prefixes(search_title || ' ' || search_body || ' ' || search_extra)
  ) stored`.execute(db);
  await sql`create index feature_requests_listed_prefix_idx on feature_requests using gin (search_prefixes)
    with (fastupdate = off) where moderation = 'approved' and merged_into_id is null`.execute(db);
  await sql`drop trigger feature_request_search_sync on feature_requests`.execute(db);
  await sql`drop trigger feature_request_search_insert on feature_requests`.execute(db);
  await sql`drop function feature_request_search_sync()`.execute(db);
  await sql`drop function feature_request_search_insert()`.execute(db);
  await sql`drop table feature_request_search`.execute(db);
}
