import type { FeatureRequestItem } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { tagsOf } from "../tags/request-tags.js";
import { toPublicTag } from "../tags/tags.js";
import { itemRows, toItem } from "./items.js";

/** A request's own row with what its item shows of its column, version and requester. */
export type ItemRow = NonNullable<Awaited<ReturnType<typeof findItemRow>>>;

/**
 * A request's row as the item shape needs it (its app and board too, for the caller's checks),
 * whatever its state; `listedItem` decides what a viewer may see of it.
 */
export async function findItemRow(db: Kysely<Database>, id: string) {
  return itemRows(db).select("fr.mergedIntoId").where("fr.id", "=", id).executeTakeFirst();
}

/** The caller as an item sees them: their end user and whether they voted for the request. */
export interface ItemViewer {
  id: string;
  hasVoted: boolean;
}

/** The end user behind a token hash and their vote on one request, in one read (undefined: no such user yet). */
export async function findItemViewer(db: Kysely<Database>, appId: string, tokenHash: string, featureRequestId: string): Promise<ItemViewer | undefined> {
  const row = await itemViewer.first(db, { appId, tokenHash, featureRequestId });
  return row === undefined ? undefined : { id: row.id, hasVoted: row.votedFor !== null };
}

/** Prepared: every identified read of a request by id sends it (on PostgreSQL, a named statement). */
const itemViewer = preparedQuery<{ appId: string; tokenHash: string; featureRequestId: string }, { id: string; votedFor: string | null }>((db, p) =>
  db
    .selectFrom("endUsers as eu")
    .leftJoin("featureRequestVotes as v", (join) => join.onRef("v.endUserId", "=", "eu.id").on("v.featureRequestId", "=", p.featureRequestId))
    .select(["eu.id", "v.featureRequestId as votedFor"])
    .where("eu.appId", "=", p.appId)
    .where("eu.tokenHash", "=", p.tokenHash),
);

/**
 * The item of a row found by `findItemRow`, or undefined when the listing would not show it to
 * this viewer: approved and not merged, or the viewer's own request still waiting for review.
 * Its public tags are read after it; its recent commenters are on its row.
 */
export async function listedItem(db: Kysely<Database>, row: ItemRow, viewer: ItemViewer | null): Promise<FeatureRequestItem | undefined> {
  if (row.mergedIntoId !== null) return undefined;
  const own = viewer !== null && row.requesterEndUserId === viewer.id;
  if (row.moderation !== "approved" && !(own && row.moderation === "pending")) return undefined;
  const tags = await tagsOf(db, [row.id], true);
  return toItem(row, { hasVoted: viewer?.hasVoted ?? false, isOwnRequest: own }, (tags.get(row.id) ?? []).map(toPublicTag));
}

/**
 * One request in the listing's item shape as an anonymous visitor sees it, or undefined when the
 * listing would not show it (see `listedItem`).
 *
 * @example
 * ```ts
 * const item = await findPublicItem(db, "fr_…");
 * ```
 */
export async function findPublicItem(db: Kysely<Database>, id: string): Promise<FeatureRequestItem | undefined> {
  const row = await findItemRow(db, id);
  return row === undefined ? undefined : listedItem(db, row, null);
}
