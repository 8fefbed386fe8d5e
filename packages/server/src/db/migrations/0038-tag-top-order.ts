import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// A tag's `top` page is read in order from the tag's own rows, as its `newest` page is (0030).
//
// 0030 copied a request's listed state and creation time onto its tag rows but not its vote count,
// so a large tag's `top` page walked the app's `top` order and looked for the tag on each request.
// That reads as many requests as precede the page's last one in the app's order: about five per
// row shown for a tag on one request in five when votes and tags are independent, but thousands
// when they are not (a tag whose requests all have middling votes): on 100k requests the cold
// `top` page of such a tag cost 2.2x the unfiltered one on PostgreSQL. The tag rows now carry the
// request's vote count too, indexed per tag in the `top` order, so any tag's `top` page reads about
// as many rows as it shows.
//
// The copy is kept by triggers, as 0030's are, so the vote paths (the vote routes, the batched
// `apply_votes`, merges, imports, recounts) need no code of their own. A vote on a request with no
// tag probes the tag rows' primary key and finds nothing; a vote on a tagged request also rewrites
// its tag rows, one per tag (tags per request are capped).

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("feature_request_tags").addColumn("request_vote_count", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await sql`update feature_request_tags set
    request_vote_count = (select fr.vote_count from feature_requests fr where fr.id = feature_request_tags.feature_request_id)`.execute(db);

  if (isPostgres(db)) {
    await sql`create or replace function feature_request_tags_fill() returns trigger language plpgsql as $fn$
begin
  select case when fr.moderation = 'approved' and fr.merged_into_id is null then 1 else 0 end, fr.created_at, fr.vote_count
    into new.listed, new.request_created_at, new.request_vote_count
    from feature_requests fr where fr.id = new.feature_request_id;
  return new;
end
$fn$`.execute(db);
    await sql`create function feature_request_tags_votes() returns trigger language plpgsql as $fn$
begin
  update feature_request_tags set request_vote_count = new.vote_count where feature_request_id = new.id;
  return null;
end
$fn$`.execute(db);
    await sql`create trigger feature_request_tags_votes
    after update of vote_count on feature_requests
    for each row when (old.vote_count is distinct from new.vote_count)
    execute function feature_request_tags_votes()`.execute(db);
  } else {
    await sql`drop trigger feature_request_tags_fill`.execute(db);
    await sql`create trigger feature_request_tags_fill after insert on feature_request_tags
    begin
      update feature_request_tags set
        listed = (select case when fr.moderation = 'approved' and fr.merged_into_id is null then 1 else 0 end from feature_requests fr where fr.id = new.feature_request_id),
        request_created_at = (select fr.created_at from feature_requests fr where fr.id = new.feature_request_id),
        request_vote_count = (select fr.vote_count from feature_requests fr where fr.id = new.feature_request_id)
      where feature_request_id = new.feature_request_id and tag_id = new.tag_id;
    end`.execute(db);
    await sql`create trigger feature_request_tags_votes
    after update of vote_count on feature_requests
    when old.vote_count is not new.vote_count
    begin
      update feature_request_tags set request_vote_count = new.vote_count where feature_request_id = new.id;
    end`.execute(db);
  }

  // Key columns in the `top` order (most votes, then newest, then id), read backwards; `listed`
  // before them, as in 0030's index, so the listing reads it from the index alone.
  await db.schema
    .createIndex("feature_request_tags_top_idx")
    .on("feature_request_tags")
    .columns(["tag_id", "listed", "request_vote_count", "request_created_at", "feature_request_id"])
    .execute();
  if (isPostgres(db)) await sql`analyze feature_request_tags`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("feature_request_tags_top_idx").execute();
  if (isPostgres(db)) {
    await sql`drop trigger feature_request_tags_votes on feature_requests`.execute(db);
    await sql`drop function feature_request_tags_votes()`.execute(db);
    await sql`create or replace function feature_request_tags_fill() returns trigger language plpgsql as $fn$
begin
  select case when fr.moderation = 'approved' and fr.merged_into_id is null then 1 else 0 end, fr.created_at
    into new.listed, new.request_created_at
    from feature_requests fr where fr.id = new.feature_request_id;
  return new;
end
$fn$`.execute(db);
  } else {
    await sql`drop trigger feature_request_tags_votes`.execute(db);
    await sql`drop trigger feature_request_tags_fill`.execute(db);
    await sql`create trigger feature_request_tags_fill after insert on feature_request_tags
    begin
      update feature_request_tags set
        listed = (select case when fr.moderation = 'approved' and fr.merged_into_id is null then 1 else 0 end from feature_requests fr where fr.id = new.feature_request_id),
        request_created_at = (select fr.created_at from feature_requests fr where fr.id = new.feature_request_id)
      where feature_request_id = new.feature_request_id and tag_id = new.tag_id;
    end`.execute(db);
  }
  await db.schema.alterTable("feature_request_tags").dropColumn("request_vote_count").execute();
}
