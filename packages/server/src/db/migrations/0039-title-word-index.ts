import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: the word prefixes of public requests' titles alone, keyed by their app, beside
// the prefixes of all their text (migration 0024), for the similar-requests lookups. Those ask for
// a few requests of one app whose title holds some words; with only the prefixes of title,
// description and names together, a lookup of two common words read every request holding one
// in its title and the other in its description (and every other app's) before it found its few,
// so its cost followed the board. A key is the app's id, a space and a word prefix of one to
// eight letters, so one key's postings are exactly the app's public requests whose title holds a
// word starting so. The triggers of 0024 keep both columns, as they keep the table.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function search_title_keys(app text, title text) returns text[] language sql immutable strict parallel safe as $$
    select coalesce(array_agg(distinct app || ' ' || left(word, n)), '{}')
    from unnest(string_to_array(title, ' ')) as word, generate_series(1, least(length(word), 8)) as n
    where word <> ''
  $$`.execute(db);
  await sql`alter table feature_request_search add column title_keys text[] not null default '{}'`.execute(db);
  await sql`create or replace function feature_request_search_sync() returns trigger language plpgsql as $fn$
begin
  if new.moderation = 'approved' and new.merged_into_id is null then
    insert into feature_request_search as s (feature_request_id, prefixes, title_keys)
    values (new.id, search_word_prefixes(new.search_title || ' ' || new.search_body || ' ' || new.search_extra), search_title_keys(new.app_id, new.search_title))
    on conflict (feature_request_id) do update set prefixes = excluded.prefixes, title_keys = excluded.title_keys
    where (s.prefixes, s.title_keys) is distinct from (excluded.prefixes, excluded.title_keys);
  else
    delete from feature_request_search where feature_request_id = new.id;
  end if;
  return null;
end
$fn$`.execute(db);
  await sql`create or replace function feature_request_search_insert() returns trigger language plpgsql as $fn$
begin
  insert into feature_request_search (feature_request_id, prefixes, title_keys)
  select id, search_word_prefixes(search_title || ' ' || search_body || ' ' || search_extra), search_title_keys(app_id, search_title)
  from inserted where moderation = 'approved' and merged_into_id is null;
  return null;
end
$fn$`.execute(db);
  await sql`update feature_request_search s set title_keys = search_title_keys(fr.app_id, fr.search_title)
    from feature_requests fr where fr.id = s.feature_request_id`.execute(db);
  // Without a pending list, as in migrations 0014 and 0024: a new request is found at once.
  await sql`create index feature_request_search_title_idx on feature_request_search using gin (title_keys) with (fastupdate = off)`.execute(db);
  await sql`analyze feature_request_search`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index feature_request_search_title_idx`.execute(db);
  await sql`create or replace function feature_request_search_sync() returns trigger language plpgsql as $fn$
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
  await sql`create or replace function feature_request_search_insert() returns trigger language plpgsql as $fn$
begin
  insert into feature_request_search (feature_request_id, prefixes)
  select id, search_word_prefixes(search_title || ' ' || search_body || ' ' || search_extra)
  from inserted where moderation = 'approved' and merged_into_id is null;
  return null;
end
$fn$`.execute(db);
  await sql`alter table feature_request_search drop column title_keys`.execute(db);
  await sql`drop function search_title_keys(text, text)`.execute(db);
}
