import type { UpdateBoardBody } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { findSegmentInApp } from "../segments/segments.js";
import { placeOn, type BoardMove } from "./board-moves.js";
import { accessRuleOf } from "./board-views.js";
import { defaultBoard, findBoardInWorkspace, listBoards, visibilityFields, type BoardRow } from "./boards.js";

/** Applies a patch to a board; making it the default takes that from the previous default. */
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
