import { sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Boards: an app's requests sorted into several lists (feature requests, bugs, integrations…),
// each public or private. Every existing app gets one default board, "Feature requests", holding
// all of its requests, so nothing changes for a client that never names a board. Its id is the
// app's own id under the board prefix (`app_x` → `brd_x`), so the backfill needs no lookup.
// The listing reads a board's page from partial indexes shaped like the app-wide ones of 0011,
// keyed by board instead of app: a page filtered by board walks only that board's listed rows.

const listed = sql<boolean>`moderation = 'approved' and merged_into_id is null`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("boards")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("visibility", "text", (c) => c.notNull())
    .addColumn("access_rule", "text")
    .addColumn("is_default", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("boards_app_slug_key", ["app_id", "slug"])
    .execute();
  // One default board per app, enforced by the database.
  await db.schema.createIndex("boards_one_default_idx").on("boards").column("app_id").unique().where(sql.ref("is_default"), "=", 1).execute();

  await sql`insert into boards (id, app_id, name, slug, description, position, visibility, access_rule, is_default, created_at, updated_at)
    select 'brd_' || substr(id, 5), id, 'Feature requests', 'feature-requests', '', 0, 'public', null, 1, created_at, created_at from apps`.execute(db);

  await db.schema.alterTable("feature_requests").addColumn("board_id", "text", (c) => c.notNull().defaultTo("")).execute();
  await sql`update feature_requests set board_id = 'brd_' || substr(app_id, 5)`.execute(db);

  await db.schema.createIndex("feature_requests_board_idx").on("feature_requests").columns(["board_id", "moderation"]).execute();
  await db.schema.createIndex("feature_requests_board_newest_idx").on("feature_requests").columns(["board_id", "created_at", "id"]).where(listed).execute();
  await db.schema.createIndex("feature_requests_board_top_idx").on("feature_requests").columns(["board_id", "vote_count", "created_at", "id"]).where(listed).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ["feature_requests_board_top_idx", "feature_requests_board_newest_idx", "feature_requests_board_idx"]) {
    await db.schema.dropIndex(name).execute();
  }
  await db.schema.alterTable("feature_requests").dropColumn("board_id").execute();
  await db.schema.dropTable("boards").execute();
}
