import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// A listing filtered by tag or board reads no more than the unfiltered one.
//
// Tags. A page filtered by a tag walked the app's listed requests in order and looked up each
// one's tags: a tag on one request in a hundred read a hundred requests per one shown (on 100k
// requests, 4 to 6 ms for a page of 50 on SQLite against 1 ms unfiltered; PostgreSQL, driven by
// statistics, sometimes sorted every request of the tag instead, 65 ms). A tag's requests are now
// read newest first from the tag's own rows: `feature_request_tags` carries a copy of whether its
// request is listed (approved, not merged) and of its creation time, indexed per tag. Triggers keep
// the copy, so every write path stays current without code of its own: a new tag row takes its
// request's values, and a change of the request's state or time reaches its tag rows. Votes do
// not: the vote count is not copied, since a vote on a tagged request would then write every tag
// row of the request and its index entries again (on PostgreSQL, 2,000 votes on tagged requests in
// one `apply_votes` took about twice as long), and votes are the target with no margin. The `top`
// order of a tag is read from the tag's rows when the tag is small, else from the app's order (see
// feature-requests/list-order.ts).
//
// Boards. The count of a board's listed requests read every row of the board through
// (board_id, moderation), which lacks merged_into_id (23 ms on a board of 60k against 5 ms for
// the app's count, which an index answers alone). The new index holds every column the count
// names, app_id too: a caller who may not see every board counts the boards they may see
// (`app_id = ? and board_id in (…)`) from it alone as well.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("feature_request_tags").addColumn("listed", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("feature_request_tags").addColumn("request_created_at", "text", (c) => c.notNull().defaultTo("")).execute();
  await sql`update feature_request_tags set
    listed = (select case when fr.moderation = 'approved' and fr.merged_into_id is null then 1 else 0 end from feature_requests fr where fr.id = feature_request_tags.feature_request_id),
    request_created_at = (select fr.created_at from feature_requests fr where fr.id = feature_request_tags.feature_request_id)`.execute(db);

  if (isPostgres(db)) {
    await sql`create function feature_request_tags_fill() returns trigger language plpgsql as $fn$
begin
  select case when fr.moderation = 'approved' and fr.merged_into_id is null then 1 else 0 end, fr.created_at
    into new.listed, new.request_created_at
    from feature_requests fr where fr.id = new.feature_request_id;
  return new;
end
$fn$`.execute(db);
    await sql`create trigger feature_request_tags_fill before insert on feature_request_tags
    for each row execute function feature_request_tags_fill()`.execute(db);
    await sql`create function feature_request_tags_follow() returns trigger language plpgsql as $fn$
begin
  update feature_request_tags set
    listed = case when new.moderation = 'approved' and new.merged_into_id is null then 1 else 0 end,
    request_created_at = new.created_at
  where feature_request_id = new.id;
  return null;
end
$fn$`.execute(db);
    // Column-listed: a vote (which sets vote_count alone) does not fire it.
    await sql`create trigger feature_request_tags_follow
    after update of created_at, moderation, merged_into_id on feature_requests
    for each row when (old.created_at is distinct from new.created_at
      or old.moderation is distinct from new.moderation or old.merged_into_id is distinct from new.merged_into_id)
    execute function feature_request_tags_follow()`.execute(db);
  } else {
    await sql`create trigger feature_request_tags_fill after insert on feature_request_tags
    begin
      update feature_request_tags set
        listed = (select case when fr.moderation = 'approved' and fr.merged_into_id is null then 1 else 0 end from feature_requests fr where fr.id = new.feature_request_id),
        request_created_at = (select fr.created_at from feature_requests fr where fr.id = new.feature_request_id)
      where feature_request_id = new.feature_request_id and tag_id = new.tag_id;
    end`.execute(db);
    await sql`create trigger feature_request_tags_follow
    after update of created_at, moderation, merged_into_id on feature_requests
    when old.created_at is not new.created_at or old.moderation is not new.moderation or old.merged_into_id is not new.merged_into_id
    begin
      update feature_request_tags set
        listed = case when new.moderation = 'approved' and new.merged_into_id is null then 1 else 0 end,
        request_created_at = new.created_at
      where feature_request_id = new.id;
    end`.execute(db);
  }

  // `listed` is a key column, not a partial condition: the listing and its count name it, and
  // SQLite reads a query from an index alone only when the index holds every column it names.
  await db.schema
    .createIndex("feature_request_tags_newest_idx")
    .on("feature_request_tags")
    .columns(["tag_id", "listed", "request_created_at", "feature_request_id"])
    .execute();

  await db.schema.dropIndex("feature_requests_board_idx").execute();
  await db.schema.createIndex("feature_requests_board_state_idx").on("feature_requests").columns(["board_id", "moderation", "merged_into_id", "app_id"]).execute();
  if (isPostgres(db)) await sql`analyze feature_request_tags`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("feature_requests_board_state_idx").execute();
  await db.schema.createIndex("feature_requests_board_idx").on("feature_requests").columns(["board_id", "moderation"]).execute();
  await db.schema.dropIndex("feature_request_tags_newest_idx").execute();
  if (isPostgres(db)) {
    await sql`drop trigger feature_request_tags_follow on feature_requests`.execute(db);
    await sql`drop trigger feature_request_tags_fill on feature_request_tags`.execute(db);
    await sql`drop function feature_request_tags_follow()`.execute(db);
    await sql`drop function feature_request_tags_fill()`.execute(db);
  } else {
    await sql`drop trigger feature_request_tags_follow`.execute(db);
    await sql`drop trigger feature_request_tags_fill`.execute(db);
  }
  for (const column of ["request_created_at", "listed"]) {
    await db.schema.alterTable("feature_request_tags").dropColumn(column).execute();
  }
}
