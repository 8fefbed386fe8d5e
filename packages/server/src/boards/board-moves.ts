import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import type { BoardRow } from "./boards.js";

/** A request that changed board: its id and the board it left. */
export interface BoardMove {
  id: string;
  fromBoardId: string;
}

/** Puts requests on `board`. */
export async function placeOn(trx: Kysely<Database>, clock: Clock, board: BoardRow, requests: readonly BoardMove[]): Promise<BoardMove[]> {
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
