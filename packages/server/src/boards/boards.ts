import { MAX_BOARDS_PER_APP, type BoardAccessRule, type BoardVisibility, type CreateBoardBody } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { appIdOfKey } from "../apps/app-keys.js";
import { isoNow, type Clock } from "../clock.js";
import { everyColumn } from "../db/every-column.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { BoardsTable, Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { findSegmentInApp } from "../segments/segments.js";
import { insertWithSlug, slugify } from "../slug.js";

export type BoardRow = Selectable<BoardsTable>;

/** Every column of `boards`, named (see {@link everyColumn}). */
export const BOARD_COLUMNS = everyColumn<BoardsTable>({
  id: true,
  appId: true,
  name: true,
  slug: true,
  description: true,
  position: true,
  visibility: true,
  accessRule: true,
  isDefault: true,
  createdAt: true,
  updatedAt: true,
});

/** Every board of an app, by position. */
export function listBoards(db: Kysely<Database>, appId: string): Promise<BoardRow[]> {
  return boardsOf.rows(db, { appId });
}

// Read for every public page of an app not in the cache: built once, and a named statement on
// PostgreSQL (its columns are listed, see everyColumn).
const boardsOf = preparedQuery<{ appId: string }, BoardRow>((db, p) =>
  db.selectFrom("boards").select(BOARD_COLUMNS).where("appId", "=", p.appId).orderBy("position").orderBy("id"),
);

/** Every board of the app whose public key is `appKey`, by position (none for an unknown key). */
export function listBoardsByAppKey(db: Kysely<Database>, appKey: string): Promise<BoardRow[]> {
  return boardsOfKey.rows(db, { appKey });
}

const boardsOfKey = preparedQuery<{ appKey: string }, BoardRow>((db, p) =>
  db
    .selectFrom("boards")
    .select(BOARD_COLUMNS)
    .where("appId", "=", appIdOfKey(db, p.appKey))
    .orderBy("position")
    .orderBy("id"),
);

/** How many requests each board of an app holds (every state), by board id. */
export async function requestCounts(db: Kysely<Database>, appId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("featureRequests")
    .select(["boardId", (eb) => eb.fn.countAll<string | number>().as("n")])
    .where("appId", "=", appId)
    .groupBy("boardId")
    .execute();
  return new Map(rows.map((r) => [r.boardId, Number(r.n)]));
}

/** The board proposals go to when they name none. */
export async function defaultBoard(db: Kysely<Database>, appId: string): Promise<BoardRow> {
  return db.selectFrom("boards").selectAll().where("appId", "=", appId).where("isDefault", "=", 1).executeTakeFirstOrThrow();
}

/** One of an app's boards; `404 board_not_found` for a board of another app or none. */
export async function findBoardOfApp(db: Kysely<Database>, appId: string, boardId: string): Promise<BoardRow> {
  const row = await db.selectFrom("boards").selectAll().where("id", "=", boardId).where("appId", "=", appId).executeTakeFirst();
  if (row === undefined) throw new ApiError("board_not_found");
  return row;
}

/** A board together with the app it belongs to, scoped to a workspace; 404 otherwise. */
export async function findBoardInWorkspace(db: Kysely<Database>, workspaceId: string, boardId: string): Promise<BoardRow> {
  const row = await db
    .selectFrom("boards")
    .innerJoin("apps", "apps.id", "boards.appId")
    .selectAll("boards")
    .where("boards.id", "=", boardId)
    .where("apps.workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("board_not_found");
  return row;
}

/** Private boards keep their rule; public ones keep none. The default board stays public. */
export function visibilityFields(
  visibility: BoardVisibility,
  rule: BoardAccessRule | null | undefined,
  isDefault: boolean,
): { visibility: BoardVisibility; accessRule: string | null } {
  if (visibility === "private" && isDefault) throw new ApiError("default_board");
  if (visibility === "public") return { visibility, accessRule: null };
  return { visibility, accessRule: rule === undefined || rule === null || Object.keys(rule).length === 0 ? null : JSON.stringify(rule) };
}

export async function createBoard(trx: Kysely<Database>, clock: Clock, appId: string, input: CreateBoardBody): Promise<BoardRow> {
  const now = isoNow(clock);
  const id = newId("brd", clock.now());
  const fields = visibilityFields(input.visibility ?? "public", input.accessRule, false);
  if (input.accessRule?.segmentId !== undefined) await findSegmentInApp(trx, appId, input.accessRule.segmentId);
  let position = 0;
  const rowWith = (slug: string): BoardRow => ({
    id,
    appId,
    name: input.name,
    slug,
    description: input.description ?? "",
    position,
    ...fields,
    isDefault: 0,
    createdAt: now,
    updatedAt: now,
  });
  // A client's slug that another request took meanwhile is 409 slug_taken; a derived one is derived again.
  const slug = await insertWithSlug(
    input.slug,
    slugify(input.name, "board"),
    async () => {
      const existing = await listBoards(trx, appId);
      if (existing.length >= MAX_BOARDS_PER_APP) throw new ApiError("too_many_boards");
      position = existing.reduce((max, b) => Math.max(max, b.position + 1), 0);
      return new Set(existing.map((b) => b.slug));
    },
    async (candidate) =>
      (await trx
        .insertInto("boards")
        .values(rowWith(candidate))
        .onConflict((oc) => oc.columns(["appId", "slug"]).doNothing())
        .returning("id")
        .executeTakeFirst()) !== undefined,
  );
  return rowWith(slug);
}
