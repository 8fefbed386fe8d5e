import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Each request keeps its recent commenters on its own row (`recent_commenters`), as the listing
// shows them: up to four distinct authors among its 20 latest visible comments, newest first, a
// person counted once by their public id, the team once, anyone else by name; each as
// `{"authorName", "clerkUserId", "avatarUrl"}` in a JSON array, null when it has no visible comment.
// Every page, search, detail and console record read them from the comments, a statement per
// page after the request's own, for up to 20 comments of each of its requests; they were kept in
// the shared cache, which every vote and comment emptied of the app's pages and a cold app never
// had. Triggers now write them whenever a comment is added, hidden, shown, edited in its author,
// moved to another request (a merge) or deleted, on every path that does so, so a page reads
// them with its rows.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The recent commenters of the request whose id is `request` (an SQL expression), as one JSON
 * array. `group` builds the array from the chosen rows' `author_name` and `public_id`, newest first.
 */
function commenters(request: string, group: string): string {
  return `(select ${group}
    from (select author_name, public_id, created_at, id
      from (select cm.author_name, eu.public_id, cm.created_at, cm.id,
          row_number() over (
            partition by coalesce(eu.public_id, case when cm.is_team = 1 then 'team' end, 'name:' || coalesce(cm.author_name, ''))
            order by cm.created_at desc, cm.id desc) as nth
        from (select author_name, is_team, end_user_id, created_at, id from feature_request_comments
          where feature_request_id = ${request} and is_hidden = 0
          order by created_at desc, id desc limit 20) cm
        left join end_users eu on eu.id = cm.end_user_id) authors
      where nth = 1 order by created_at desc, id desc limit 4) latest)`;
}

const ON_SQLITE = (request: string) =>
  `nullif(${commenters(request, "json_group_array(json_object('authorName', author_name, 'clerkUserId', public_id, 'avatarUrl', null) order by created_at desc, id desc)")}, '[]')`;

/** SQLite: writes the recent commenters of the request named by the comment row `row` (`new` or `old`). */
const refresh = (row: "new" | "old") =>
  `update feature_requests set recent_commenters = ${ON_SQLITE(`${row}.feature_request_id`)} where id = ${row}.feature_request_id`;

/** The columns whose change can change a request's recent commenters. */
const WATCHED = "feature_request_id, is_hidden, author_name, is_team, end_user_id, created_at";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("feature_requests").addColumn("recent_commenters", "text").execute();

  if (isPostgres(db)) {
    await sql
      .raw(
        `create function feature_request_recent_commenters(request text) returns text language sql stable as $fn$
  select ${commenters("request", "json_agg(json_build_object('authorName', author_name, 'clerkUserId', public_id, 'avatarUrl', null) order by created_at desc, id desc)::text")}
$fn$`,
      )
      .execute(db);
    await sql`create function feature_request_commenters_sync() returns trigger language plpgsql as $fn$
begin
  if tg_op <> 'INSERT' then
    update feature_requests set recent_commenters = feature_request_recent_commenters(old.feature_request_id) where id = old.feature_request_id;
  end if;
  if tg_op = 'INSERT' then
    update feature_requests set recent_commenters = feature_request_recent_commenters(new.feature_request_id) where id = new.feature_request_id;
  elsif tg_op = 'UPDATE' then
    if new.feature_request_id <> old.feature_request_id then
      update feature_requests set recent_commenters = feature_request_recent_commenters(new.feature_request_id) where id = new.feature_request_id;
    end if;
  end if;
  return null;
end
$fn$`.execute(db);
    await sql
      .raw(
        `create trigger feature_request_commenters_sync
    after insert or delete or update of ${WATCHED} on feature_request_comments
    for each row execute function feature_request_commenters_sync()`,
      )
      .execute(db);
    await sql`update feature_requests set recent_commenters = feature_request_recent_commenters(id)
      where id in (select feature_request_id from feature_request_comments where is_hidden = 0)`.execute(db);
  } else {
    await sql
      .raw(
        `create trigger feature_request_commenters_insert after insert on feature_request_comments
    begin
      ${refresh("new")};
    end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger feature_request_commenters_update after update of ${WATCHED} on feature_request_comments
    begin
      ${refresh("old")};
      ${refresh("new")} and new.feature_request_id <> old.feature_request_id;
    end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger feature_request_commenters_delete after delete on feature_request_comments
    begin
      ${refresh("old")};
    end`,
      )
      .execute(db);
    await sql
      .raw(
        `update feature_requests set recent_commenters = ${ON_SQLITE("feature_requests.id")}
      where id in (select feature_request_id from feature_request_comments where is_hidden = 0)`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger feature_request_commenters_sync on feature_request_comments`.execute(db);
    await sql`drop function feature_request_commenters_sync()`.execute(db);
    await sql`drop function feature_request_recent_commenters(text)`.execute(db);
  } else {
    await sql`drop trigger feature_request_commenters_insert`.execute(db);
    await sql`drop trigger feature_request_commenters_update`.execute(db);
    await sql`drop trigger feature_request_commenters_delete`.execute(db);
  }
  await db.schema.alterTable("feature_requests").dropColumn("recent_commenters").execute();
}
