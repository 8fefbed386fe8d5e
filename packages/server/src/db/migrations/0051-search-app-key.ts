import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: each row of the search table (migration 0024) also holds a key of its app,
// `@` and the app's id, beside its word prefixes. The table holds every app's public requests, so
// a search of one app looked its words up among the whole instance's and dropped the other apps'
// matches afterwards, one request at a time by primary key: on an instance of many apps whose
// requests use the same words, a small app's search cost grew with the number of apps. With the
// app's key among a search's keys, GIN intersects the words' postings with the app's, which are
// few for a small app. A word holds letters and digits only (the search texts are normalised by
// the application), so no word prefix starts with `@`. The triggers of 0024 keep the key, and
// SQLite needs nothing: its full-text index already keys each word under its app (migration 0006).

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The search row's keys: its word prefixes, with its app's key when `keyed`. */
const prefixes = (row: string, keyed: boolean) =>
  `search_word_prefixes(${row}search_title || ' ' || ${row}search_body || ' ' || ${row}search_extra)${keyed ? ` || ('@' || ${row}app_id)` : ""}`;

/** 0024's triggers, writing the app's key (`keyed`) or not. */
async function searchTriggers(db: Kysely<unknown>, keyed: boolean): Promise<void> {
  await sql
    .raw(
      `create or replace function feature_request_search_sync() returns trigger language plpgsql as $fn$
begin
  if new.moderation = 'approved' and new.merged_into_id is null then
    insert into feature_request_search as s (feature_request_id, prefixes)
    values (new.id, ${prefixes("new.", keyed)})
    on conflict (feature_request_id) do update set prefixes = excluded.prefixes
    where s.prefixes is distinct from excluded.prefixes;
  else
    delete from feature_request_search where feature_request_id = new.id;
  end if;
  return null;
end
$fn$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function feature_request_search_insert() returns trigger language plpgsql as $fn$
begin
  insert into feature_request_search (feature_request_id, prefixes)
  select id, ${prefixes("", keyed)}
  from inserted where moderation = 'approved' and merged_into_id is null;
  return null;
end
$fn$`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await searchTriggers(db, true);
  await sql`update feature_request_search s set prefixes = s.prefixes || ('@' || fr.app_id)
    from feature_requests fr where fr.id = s.feature_request_id and not (s.prefixes @> array['@' || fr.app_id])`.execute(db);
  await sql`analyze feature_request_search`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await searchTriggers(db, false);
  await sql`update feature_request_search s set prefixes = array_remove(s.prefixes, '@' || fr.app_id)
    from feature_requests fr where fr.id = s.feature_request_id`.execute(db);
}
