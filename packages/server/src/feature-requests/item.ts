import type { FeatureRequestItem } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { tagsOf, toPublicTag } from "../tags/tags.js";
import { ITEM_COLUMNS, ITEM_JOINED_COLUMNS, recentCommenters, toItem } from "./items.js";

/**
 * One request in the listing's item shape, or undefined when the listing would not show it to
 * this viewer: approved and not merged, or the viewer's own request still waiting for review.
 *
 * @example
 * ```ts
 * const item = await findListedItem(db, "fr_…", viewer?.id ?? null);
 * ```
 */
export async function findListedItem(db: Kysely<Database>, id: string, viewerEndUserId: string | null): Promise<FeatureRequestItem | undefined> {
  const row = await db
    .selectFrom("featureRequests as fr")
    .leftJoin("boardColumns as c", "c.id", "fr.columnId")
    .leftJoin("appVersions as v", "v.id", "fr.versionId")
    .leftJoin("endUsers as requester", "requester.id", "fr.requesterEndUserId")
    .select(ITEM_COLUMNS)
    .select(["fr.mergedIntoId", ...ITEM_JOINED_COLUMNS])
    .where("fr.id", "=", id)
    .executeTakeFirst();
  if (row === undefined || row.mergedIntoId !== null) return undefined;
  const own = viewerEndUserId !== null && row.requesterEndUserId === viewerEndUserId;
  if (row.moderation !== "approved" && !(own && row.moderation === "pending")) return undefined;
  const voted =
    viewerEndUserId === null
      ? undefined
      : await db.selectFrom("featureRequestVotes").select("featureRequestId").where("featureRequestId", "=", id).where("endUserId", "=", viewerEndUserId).executeTakeFirst();
  const [commenters, tags] = await Promise.all([recentCommenters(db, [id]), tagsOf(db, [id], true)]);
  return toItem(row, commenters.get(id) ?? [], { hasVoted: voted !== undefined, isOwnRequest: own }, (tags.get(id) ?? []).map(toPublicTag));
}
