import { sql, type Kysely } from "kysely";
import { executeNamed } from "../db/named-statements.js";
import type { Database } from "../db/schema.js";

/**
 * How many of a caller's own requests waiting for review their listings and searches show: the
 * newest ones (see docs/public-api.md). A caller who keeps proposing made every page of theirs
 * read, count and search all of their pending requests, so a page's cost grew with what they had
 * sent; with this window it reads at most this many, whatever they have waiting. The older ones
 * stay in the data, reachable by id and in the console's review queue.
 */
export const OWN_PENDING_SHOWN = 50;

/**
 * The ids of the viewer's {@link OWN_PENDING_SHOWN} newest pending requests (not merged), read in
 * order from the partial index of migration 0011 alone: the window every other part of a listing
 * narrows (by board, version, tag, search words) instead of the viewer's whole backlog.
 *
 * @example
 * ```ts
 * const own = await newestOwnPending(db, appId, viewerEndUserId);
 * ```
 */
export async function newestOwnPending(db: Kysely<Database>, appId: string, viewerEndUserId: string): Promise<string[]> {
  const rows = await executeNamed(
    db,
    db
      .selectFrom("featureRequests")
      .select("id")
      .where("appId", "=", appId)
      .where("requesterEndUserId", "=", viewerEndUserId)
      // Literals, so the partial index serves it (see listed.ts).
      .where("moderation", "=", sql.lit("pending"))
      .where("mergedIntoId", "is", null)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(sql.lit(OWN_PENDING_SHOWN)),
  );
  return rows.map((r) => r.id);
}
