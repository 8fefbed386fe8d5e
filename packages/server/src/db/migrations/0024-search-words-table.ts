import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: the word prefixes of public requests (migration 0014) move from a generated
// column of `feature_requests`, under a GIN index of that table, to a table of their own. Every
// vote moves its request's `vote_count`, which is indexed, so each vote wrote a new version of
// the request's row, and the GIN index took an entry for every one of the row's forty-odd
// prefixes: on the bench's board that was half of what PostgreSQL spent on a vote (0.29 of
// 0.62 ms). The table holds the public requests only (approved, not merged), as the partial
// index did, with what a search filters and orders by (app, version, search title, votes, age),
// so a search reads this table alone and never looks up each match in `feature_requests`.
// Triggers keep it, so every write path stays current without code of its own: new requests
// (once per statement), the words and the visibility on a change of the search texts, the
// state, the merge or the version; the count alone on a vote, an update that touches no index
// of this table (`vote_count` is not indexed here), so it can stay on its page (HOT;
// `fillfactor` leaves room for it).

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table feature_request_search (
    feature_request_id text primary key references feature_requests (id) on delete cascade,
    app_id text not null,
    version_id text,
    search_title text not null,
    vote_count integer not null,
    created_at text not null,
    prefixes text[] not null
  ) with (fillfactor = 80)`.execute(db);
  // Without a pending list, as in migration 0014: a new request is in the index at once.
  await sql`create index feature_request_search_prefix_idx on feature_request_search using gin (prefixes) with (fastupdate = off)`.execute(db);
  await sql`create function feature_request_search_sync() returns trigger language plpgsql as $fn$
begin
  if new.moderation = 'approved' and new.merged_into_id is null then
    insert into feature_request_search as s (feature_request_id, app_id, version_id, search_title, vote_count, created_at, prefixes)
    values (new.id, new.app_id, new.version_id, new.search_title, new.vote_count, new.created_at,
      search_word_prefixes(new.search_title || ' ' || new.search_body || ' ' || new.search_extra))
    on conflict (feature_request_id) do update set
      version_id = excluded.version_id, search_title = excluded.search_title, vote_count = excluded.vote_count, prefixes = excluded.prefixes
    where (s.version_id, s.search_title, s.vote_count, s.prefixes) is distinct from (excluded.version_id, excluded.search_title, excluded.vote_count, excluded.prefixes);
  else
    delete from feature_request_search where feature_request_id = new.id;
  end if;
  return null;
end
$fn$`.execute(db);
  await sql`create function feature_request_search_insert() returns trigger language plpgsql as $fn$
begin
  insert into feature_request_search (feature_request_id, app_id, version_id, search_title, vote_count, created_at, prefixes)
  select id, app_id, version_id, search_title, vote_count, created_at, search_word_prefixes(search_title || ' ' || search_body || ' ' || search_extra)
  from inserted where moderation = 'approved' and merged_into_id is null;
  return null;
end
$fn$`.execute(db);
  await sql`create function feature_request_search_count() returns trigger language plpgsql as $fn$
begin
  update feature_request_search set vote_count = new.vote_count where feature_request_id = new.id;
  return null;
end
$fn$`.execute(db);
  // New requests once per statement (an import inserts thousands in one), updates per row.
  await sql`create trigger feature_request_search_insert
    after insert on feature_requests referencing new table as inserted
    for each statement execute function feature_request_search_insert()`.execute(db);
  // Column-listed: an update that sets none of them (a comment count) fires neither; a vote
  // fires the count's alone.
  await sql`create trigger feature_request_search_sync
    after update of search_title, search_body, search_extra, moderation, merged_into_id, version_id on feature_requests
    for each row execute function feature_request_search_sync()`.execute(db);
  await sql`create trigger feature_request_search_count
    after update of vote_count on feature_requests
    for each row when (old.vote_count is distinct from new.vote_count) execute function feature_request_search_count()`.execute(db);
  await sql`insert into feature_request_search (feature_request_id, app_id, version_id, search_title, vote_count, created_at, prefixes)
    select id, app_id, version_id, search_title, vote_count, created_at, search_prefixes
    from feature_requests where moderation = 'approved' and merged_into_id is null`.execute(db);
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
  await sql`drop trigger feature_request_search_count on feature_requests`.execute(db);
  await sql`drop trigger feature_request_search_sync on feature_requests`.execute(db);
  await sql`drop trigger feature_request_search_insert on feature_requests`.execute(db);
  await sql`drop function feature_request_search_count()`.execute(db);
  await sql`drop function feature_request_search_insert()`.execute(db);
  await sql`drop function feature_request_search_sync()`.execute(db);
  await sql`drop table feature_request_search`.execute(db);
}
