import { sql, type Expression, type Kysely, type SqlBool } from "kysely";
import { executeNamed } from "../db/named-statements.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { itemRows, type ItemRow } from "./items.js";

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

/** One request of {@link ownPendingWindow}: its item's row, the caller's vote on it, and whether it carries tags. */
export interface OwnPendingRow extends ItemRow {
  hasVoted: number | boolean;
  tagged: number | boolean;
}

/**
 * The same window as {@link newestOwnPending}, with what a `newest`, `top` or `trending` page
 * needs of its requests: the item's row (what the page merges by and filters on, creation time,
 * votes, board and version, included), the caller's vote, and whether it carries any tag (to be
 * read, or matched against a tag filter). One prepared statement where
 * the window, its merge keys and the items of those landing on the page took three, two of them
 * with lists of ids (on PostgreSQL unnamed, so parsed and planned on every page of every caller
 * with a pending request).
 */
export function ownPendingWindow(db: Kysely<Database>, appId: string, viewerEndUserId: string): Promise<OwnPendingRow[]> {
  return ownWindowRows.rows(db, { appId, viewerEndUserId });
}

const ownWindowRows = preparedQuery<{ appId: string; viewerEndUserId: string }, OwnPendingRow>((db, p) => ownWindowOf(db, p.appId, p.viewerEndUserId) as never);

/**
 * The query of {@link ownPendingWindow} for the app and viewer given as values or as SQL (the
 * columns of an outer query, where page-viewers.ts reads it beside the viewer), and only when
 * `when` holds (a condition on the outer query alone).
 */
export function ownWindowOf(db: Kysely<Database>, appId: string | Expression<string>, viewerEndUserId: string | Expression<string>, when?: Expression<SqlBool>) {
  const window = itemRows(db)
    .select((eb) => [
      eb.exists(eb.selectFrom("featureRequestVotes as vote").select("vote.featureRequestId").whereRef("vote.featureRequestId", "=", "fr.id").where("vote.endUserId", "=", viewerEndUserId)).as("hasVoted"),
      eb.exists(eb.selectFrom("featureRequestTags as t").select("t.tagId").whereRef("t.featureRequestId", "=", "fr.id")).as("tagged"),
    ])
    .where("fr.appId", "=", appId)
    .where("fr.requesterEndUserId", "=", viewerEndUserId)
    // Literals, so the partial index serves it (see listed.ts).
    .where("fr.moderation", "=", sql.lit("pending"))
    .where("fr.mergedIntoId", "is", null)
    .orderBy("fr.createdAt", "desc")
    .orderBy("fr.id", "desc")
    .limit(sql.lit(OWN_PENDING_SHOWN));
  return when === undefined ? window : window.where(when);
}
