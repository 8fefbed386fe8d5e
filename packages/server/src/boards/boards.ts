import { MAX_BOARDS_PER_APP, type Board, type BoardAccessRule, type BoardVisibility, type CreateBoardBody, type PublicBoard, type UpdateBoardBody } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { BoardsTable, Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { findSegmentInApp } from "../segments/segments.js";
import { insertWithSlug, slugify } from "../slug.js";

export type BoardRow = Selectable<BoardsTable>;

/** The stored access rule of a private board; null admits every identified user. */
export function accessRuleOf(row: BoardRow): BoardAccessRule | null {
  return row.accessRule === null ? null : (JSON.parse(row.accessRule) as BoardAccessRule);
}

export function toPublicBoard(row: BoardRow): PublicBoard {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    position: row.position,
    visibility: row.visibility,
    isDefault: row.isDefault === 1,
  };
}

export function toBoard(row: BoardRow, requestCount: number): Board {
  return {
    ...toPublicBoard(row),
    appId: row.appId,
    accessRule: row.visibility === "private" ? accessRuleOf(row) : null,
    requestCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Every board of an app, by position. */
export function listBoards(db: Kysely<Database>, appId: string): Promise<BoardRow[]> {
  return db.selectFrom("boards").selectAll().where("appId", "=", appId).orderBy("position").orderBy("id").execute();
}

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
function visibilityFields(
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

export async function updateBoard(trx: Kysely<Database>, clock: Clock, workspaceId: string, boardId: string, patch: UpdateBoardBody): Promise<BoardRow> {
  const current = await findBoardInWorkspace(trx, workspaceId, boardId);
  const becomesDefault = patch.isDefault === true && current.isDefault === 0;
  const changes: Partial<BoardRow> = { updatedAt: isoNow(clock) };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.description !== undefined) changes.description = patch.description;
  if (patch.visibility !== undefined || patch.accessRule !== undefined || becomesDefault) {
    const visibility = patch.visibility ?? current.visibility;
    const rule = patch.accessRule !== undefined ? patch.accessRule : accessRuleOf(current);
    if (patch.accessRule?.segmentId !== undefined) await findSegmentInApp(trx, current.appId, patch.accessRule.segmentId);
    Object.assign(changes, visibilityFields(visibility, rule, current.isDefault === 1 || becomesDefault));
  }
  if (patch.slug !== undefined && patch.slug !== current.slug) {
    const taken = await trx.selectFrom("boards").select("id").where("appId", "=", current.appId).where("slug", "=", patch.slug).executeTakeFirst();
    if (taken !== undefined) throw new ApiError("slug_taken");
    changes.slug = patch.slug;
  }
  if (becomesDefault) {
    // The partial unique index allows one default per app: clear the old one first.
    await trx.updateTable("boards").set({ isDefault: 0 }).where("appId", "=", current.appId).where("isDefault", "=", 1).execute();
    changes.isDefault = 1;
  }
  await trx.updateTable("boards").set(changes).where("id", "=", boardId).execute();
  return findBoardInWorkspace(trx, workspaceId, boardId);
}

/** Sets the order of an app's boards; `boardIds` must list each of them exactly once. */
export async function reorderBoards(trx: Kysely<Database>, clock: Clock, appId: string, boardIds: readonly string[]): Promise<BoardRow[]> {
  const existing = new Set((await listBoards(trx, appId)).map((b) => b.id));
  const given = new Set(boardIds);
  if (given.size !== boardIds.length || given.size !== existing.size || [...given].some((id) => !existing.has(id))) {
    throw new ApiError("invalid_board_order");
  }
  const now = isoNow(clock);
  for (const [position, id] of boardIds.entries()) {
    await trx.updateTable("boards").set({ position, updatedAt: now }).where("id", "=", id).execute();
  }
  return listBoards(trx, appId);
}

/**
 * Deletes a board that is not the default; its requests (with their votes, comments and
 * followers, which hang off the request) move to the app's default board. Answers which moved
 * from where, for their history.
 */
export async function deleteBoard(trx: Kysely<Database>, clock: Clock, workspaceId: string, boardId: string): Promise<BoardRow & { moves: BoardMove[]; movedTo: BoardRow }> {
  const board = await findBoardInWorkspace(trx, workspaceId, boardId);
  if (board.isDefault === 1) throw new ApiError("default_board");
  const target = await defaultBoard(trx, board.appId);
  const leaving = await trx.selectFrom("featureRequests").select(["id", "boardId as fromBoardId"]).where("boardId", "=", boardId).orderBy("id").execute();
  const moves = await placeOn(trx, clock, target, leaving);
  await trx.deleteFrom("boards").where("id", "=", boardId).execute();
  const rest = await listBoards(trx, board.appId);
  for (const [position, row] of rest.entries()) {
    if (row.position !== position) await trx.updateTable("boards").set({ position }).where("id", "=", row.id).execute();
  }
  return { ...board, moves, movedTo: target };
}

/** A request that changed board: its id and the board it left. */
export interface BoardMove {
  id: string;
  fromBoardId: string;
}

/** Puts requests on `board`. */
async function placeOn(trx: Kysely<Database>, clock: Clock, board: BoardRow, requests: readonly BoardMove[]): Promise<BoardMove[]> {
  const ids = requests.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    await trx.updateTable("featureRequests").set({ boardId: board.id, updatedAt: isoNow(clock) }).where("id", "in", ids.slice(i, i + 500)).execute();
  }
  return [...requests];
}

/**
 * Moves requests of one app to another of its boards. Ids of other apps or unknown ids are
 * skipped (counted out of `moved`); merged requests move too, so a merge stays on one board's
 * history. Returns the requests that moved, with the board each left.
 */
export async function moveRequests(trx: Kysely<Database>, clock: Clock, board: BoardRow, featureRequestIds: readonly string[]): Promise<BoardMove[]> {
  const leaving = await trx
    .selectFrom("featureRequests")
    .select(["id", "boardId as fromBoardId"])
    .where("appId", "=", board.appId)
    .where("id", "in", [...new Set(featureRequestIds)])
    .where("boardId", "!=", board.id)
    .orderBy("id")
    .execute();
  return placeOn(trx, clock, board, leaving);
}
