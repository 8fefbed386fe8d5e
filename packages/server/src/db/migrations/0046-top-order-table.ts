import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// The `top` order (most votes, then newest, then id) is read from a narrow table of its own,
// `feature_request_top`, kept by triggers, instead of from indexes of `feature_requests`.
//
// Four indexes of `feature_requests` held `vote_count` (the app's, the listed, the board's and the
// own-pending `top` orders). On PostgreSQL an update that changes an indexed column cannot be a
// heap-only (HOT) update: every vote wrote a new version of its request's wide row and a new entry
// in each of the table's eleven indexes that held it. With no index naming `vote_count`, a vote's
// update of the request is heap-only (the table keeps a tenth of each page free for it), and the
// trigger's update of the narrow row writes three index entries (its key and the two orders).
// Alternated over HTTP with 100 clients voting, a scratch schema built this way took 1.20–1.33x
// the votes of the former one. SQLite updates only the indexes whose columns changed, so it gains
// nothing here, but both engines keep one schema and one read path.
//
// One row per request: its app, board, whether it is listed (approved, not merged), its vote
// count and its creation time. The triggers copy them on insert, on any change of those columns
// and on delete, so no write path needs code of its own, and the copy moves in the transaction of
// the change that moves the request. A listing reads the order from the copy's indexes
// (`listed` as a key column, as in 0030, so a count or a walk reads the index alone) and each
// shown request by its primary key.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const LISTED = "case when moderation = 'approved' and merged_into_id is null then 1 else 0 end";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("feature_request_top")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull())
    .addColumn("board_id", "text", (c) => c.notNull())
    .addColumn("listed", "integer", (c) => c.notNull())
    .addColumn("vote_count", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await sql.raw(`insert into feature_request_top (id, app_id, board_id, listed, vote_count, created_at)
    select id, app_id, board_id, ${LISTED}, vote_count, created_at from feature_requests`).execute(db);
  await db.schema.createIndex("feature_request_top_app_idx").on("feature_request_top").columns(["app_id", "listed", "vote_count", "created_at", "id"]).execute();
  await db.schema.createIndex("feature_request_top_board_idx").on("feature_request_top").columns(["board_id", "listed", "vote_count", "created_at", "id"]).execute();

  const changed = ["app_id", "board_id", "moderation", "merged_into_id", "vote_count", "created_at"];
  if (isPostgres(db)) {
    // Inserts and deletes per statement (bulk imports insert thousands in one), updates per row
    // (a vote updates one).
    await sql.raw(`create function feature_request_top_add() returns trigger language plpgsql as $fn$
begin
  insert into feature_request_top (id, app_id, board_id, listed, vote_count, created_at)
    select id, app_id, board_id, ${LISTED}, vote_count, created_at from added;
  return null;
end
$fn$`).execute(db);
    await sql`create trigger feature_request_top_add after insert on feature_requests
    referencing new table as added for each statement execute function feature_request_top_add()`.execute(db);
    await sql`create function feature_request_top_remove() returns trigger language plpgsql as $fn$
begin
  delete from feature_request_top t using removed where t.id = removed.id;
  return null;
end
$fn$`.execute(db);
    await sql`create trigger feature_request_top_remove after delete on feature_requests
    referencing old table as removed for each statement execute function feature_request_top_remove()`.execute(db);
    await sql`create function feature_request_top_follow() returns trigger language plpgsql as $fn$
begin
  update feature_request_top set app_id = new.app_id, board_id = new.board_id,
    listed = case when new.moderation = 'approved' and new.merged_into_id is null then 1 else 0 end,
    vote_count = new.vote_count, created_at = new.created_at
  where id = new.id;
  return null;
end
$fn$`.execute(db);
    await sql.raw(`create trigger feature_request_top_follow after update of ${changed.join(", ")} on feature_requests
    for each row when (${changed.map((c) => `old.${c} is distinct from new.${c}`).join(" or ")})
    execute function feature_request_top_follow()`).execute(db);
  } else {
    await sql`create trigger feature_request_top_add after insert on feature_requests
    begin
      insert into feature_request_top (id, app_id, board_id, listed, vote_count, created_at)
      values (new.id, new.app_id, new.board_id, case when new.moderation = 'approved' and new.merged_into_id is null then 1 else 0 end, new.vote_count, new.created_at);
    end`.execute(db);
    await sql`create trigger feature_request_top_remove after delete on feature_requests
    begin
      delete from feature_request_top where id = old.id;
    end`.execute(db);
    await sql.raw(`create trigger feature_request_top_follow after update of ${changed.join(", ")} on feature_requests
    when ${changed.map((c) => `old.${c} is not new.${c}`).join(" or ")}
    begin
      update feature_request_top set app_id = new.app_id, board_id = new.board_id,
        listed = case when new.moderation = 'approved' and new.merged_into_id is null then 1 else 0 end,
        vote_count = new.vote_count, created_at = new.created_at
      where id = new.id;
    end`).execute(db);
  }

  for (const index of ["feature_requests_app_top_idx", "feature_requests_listed_top_idx", "feature_requests_board_top_idx", "feature_requests_own_pending_top_idx"]) {
    await db.schema.dropIndex(index).execute();
  }
  if (isPostgres(db)) {
    // Room on each page for the new versions of its rows (applies to pages written from now on).
    await sql`alter table feature_requests set (fillfactor = 90)`.execute(db);
    await sql`analyze feature_request_top`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const listed = sql<boolean>`moderation = 'approved' and merged_into_id is null`;
  const pending = sql<boolean>`moderation = 'pending' and merged_into_id is null`;
  await db.schema.createIndex("feature_requests_app_top_idx").on("feature_requests").columns(["app_id", "vote_count", "created_at", "id"]).execute();
  await db.schema.createIndex("feature_requests_listed_top_idx").on("feature_requests").columns(["app_id", "vote_count", "created_at", "id"]).where(listed).execute();
  await db.schema.createIndex("feature_requests_board_top_idx").on("feature_requests").columns(["board_id", "vote_count", "created_at", "id"]).where(listed).execute();
  await db.schema
    .createIndex("feature_requests_own_pending_top_idx")
    .on("feature_requests")
    .columns(["app_id", "requester_end_user_id", "moderation", "vote_count", "created_at", "id", "merged_into_id"])
    .where(pending)
    .execute();
  if (isPostgres(db)) {
    await sql`alter table feature_requests reset (fillfactor)`.execute(db);
    await sql`drop trigger feature_request_top_add on feature_requests`.execute(db);
    await sql`drop trigger feature_request_top_remove on feature_requests`.execute(db);
    await sql`drop trigger feature_request_top_follow on feature_requests`.execute(db);
    for (const fn of ["feature_request_top_add()", "feature_request_top_remove()", "feature_request_top_follow()"]) await sql.raw(`drop function ${fn}`).execute(db);
  } else {
    for (const trigger of ["feature_request_top_add", "feature_request_top_remove", "feature_request_top_follow"]) await sql.raw(`drop trigger ${trigger}`).execute(db);
  }
  await db.schema.dropTable("feature_request_top").execute();
}
