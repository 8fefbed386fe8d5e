import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: the words of public requests' titles move from the GIN-indexed `title_keys`
// of migration 0039 to a table of their own, one row per request and distinct title word (cut to
// eight letters), under a btree keyed by app and word that carries the title's words too. A GIN
// lookup of several words gathers every posting of each before it answers, so on a board of 1M
// requests one of two common words cost 50-70 ms; a btree can be read a bounded number of
// entries at a time, and the words carried in the index let a lookup check the others without
// reading a table row. The rows are kept by triggers of their own, as 0024's keep the search
// table: new requests once per insert statement, a change of the title, the moderation state or
// the merge per row, deleted requests once per delete statement. The table holds the public
// requests only (approved, not merged). It has no foreign key: its delete trigger removes a
// request's rows by their key, where a cascade would want an index of its own on the request.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function search_title_words(title text) returns text[] language sql immutable strict parallel safe as $$
    select coalesce(array_agg(distinct left(word, 8)), '{}') from unnest(string_to_array(title, ' ')) as word where word <> ''
  $$`.execute(db);
  // `words`: the same words, each after a space, so "holds a word starting with t" is one strpos.
  await sql`create table feature_request_title_words (
    app_id text not null,
    word text collate "C" not null,
    feature_request_id text not null,
    words text not null,
    primary key (app_id, word, feature_request_id) include (words)
  )`.execute(db);
  await sql`create function feature_request_title_words_insert() returns trigger language plpgsql as $fn$
begin
  insert into feature_request_title_words (app_id, word, feature_request_id, words)
  select i.app_id, w.word, i.id, ' ' || array_to_string(t.words, ' ')
  from inserted i cross join lateral (select search_title_words(i.search_title) as words) t cross join lateral unnest(t.words) as w (word)
  where i.moderation = 'approved' and i.merged_into_id is null;
  return null;
end
$fn$`.execute(db);
  await sql`create function feature_request_title_words_sync() returns trigger language plpgsql as $fn$
declare
  was_listed boolean := old.moderation = 'approved' and old.merged_into_id is null;
  is_listed boolean := new.moderation = 'approved' and new.merged_into_id is null;
begin
  if was_listed and is_listed and old.search_title = new.search_title then
    return null;
  end if;
  if was_listed then
    delete from feature_request_title_words
    where app_id = old.app_id and word = any (search_title_words(old.search_title)) and feature_request_id = old.id;
  end if;
  if is_listed then
    -- A row left by an earlier state is brought up to date rather than failing the update.
    insert into feature_request_title_words as f (app_id, word, feature_request_id, words)
    select new.app_id, w.word, new.id, ' ' || array_to_string(t.words, ' ')
    from (select search_title_words(new.search_title) as words) t cross join lateral unnest(t.words) as w (word)
    on conflict (app_id, word, feature_request_id) do update set words = excluded.words where f.words <> excluded.words;
  end if;
  return null;
end
$fn$`.execute(db);
  await sql`create function feature_request_title_words_delete() returns trigger language plpgsql as $fn$
begin
  delete from feature_request_title_words f
  using (select d.app_id, w.word, d.id from deleted d cross join lateral unnest(search_title_words(d.search_title)) as w (word)
         where d.moderation = 'approved' and d.merged_into_id is null) g
  where f.app_id = g.app_id and f.word = g.word and f.feature_request_id = g.id;
  return null;
end
$fn$`.execute(db);
  await sql`create trigger feature_request_title_words_insert
    after insert on feature_requests referencing new table as inserted
    for each statement execute function feature_request_title_words_insert()`.execute(db);
  // Column-listed: a vote or a comment count does not fire it.
  await sql`create trigger feature_request_title_words_sync
    after update of search_title, moderation, merged_into_id on feature_requests
    for each row execute function feature_request_title_words_sync()`.execute(db);
  await sql`create trigger feature_request_title_words_delete
    after delete on feature_requests referencing old table as deleted
    for each statement execute function feature_request_title_words_delete()`.execute(db);
  await sql`insert into feature_request_title_words (app_id, word, feature_request_id, words)
    select fr.app_id, w.word, fr.id, ' ' || array_to_string(t.words, ' ')
    from feature_requests fr cross join lateral (select search_title_words(fr.search_title) as words) t cross join lateral unnest(t.words) as w (word)
    where fr.moderation = 'approved' and fr.merged_into_id is null`.execute(db);
  await sql`analyze feature_request_title_words`.execute(db);
  // The search table goes back to 0024's shape: its triggers no longer keep title keys.
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
  await sql`drop index feature_request_search_title_idx`.execute(db);
  await sql`alter table feature_request_search drop column title_keys`.execute(db);
  await sql`drop function search_title_keys(text, text)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
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
  await sql`create index feature_request_search_title_idx on feature_request_search using gin (title_keys) with (fastupdate = off)`.execute(db);
  await sql`drop trigger feature_request_title_words_delete on feature_requests`.execute(db);
  await sql`drop trigger feature_request_title_words_sync on feature_requests`.execute(db);
  await sql`drop trigger feature_request_title_words_insert on feature_requests`.execute(db);
  await sql`drop function feature_request_title_words_delete()`.execute(db);
  await sql`drop function feature_request_title_words_sync()`.execute(db);
  await sql`drop function feature_request_title_words_insert()`.execute(db);
  await sql`drop table feature_request_title_words`.execute(db);
  await sql`drop function search_title_words(text)`.execute(db);
}
