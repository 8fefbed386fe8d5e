import type { FeatureRequestItem, PublicTag } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

type Commenter = FeatureRequestItem["recentCommenters"][number];

/** The request's own columns a listed item is built from. */
export const ITEM_COLUMNS = [
  "fr.id",
  "fr.appId",
  "fr.boardId",
  "fr.title",
  "fr.description",
  "fr.moderation",
  "fr.voteCount",
  "fr.importedVotes",
  "fr.commentCount",
  "fr.recentCommenters",
  "fr.columnId",
  "fr.versionId",
  "fr.requesterName",
  "fr.requesterEndUserId",
  "fr.createdAt",
  "fr.updatedAt",
] as const;

/** What an item takes from its column, version and requester (joined as `c`, `v` and `requester`). */
export const ITEM_JOINED_COLUMNS = [
  "c.slug as columnSlug",
  "c.name as columnName",
  "c.color as columnColor",
  "v.label as versionLabel",
  "v.released as versionReleased",
  "requester.publicId as requesterPublicId",
] as const;

/** `feature_requests` as `fr`, with the columns an item takes from it and from its column, version and requester. */
export function itemRows(db: Kysely<Database>) {
  return db
    .selectFrom("featureRequests as fr")
    .leftJoin("boardColumns as c", "c.id", "fr.columnId")
    .leftJoin("appVersions as v", "v.id", "fr.versionId")
    .leftJoin("endUsers as requester", "requester.id", "fr.requesterEndUserId")
    .select(ITEM_COLUMNS)
    .select(ITEM_JOINED_COLUMNS);
}

/** The columns a feature request item is built from (the listing's and the console's rows). */
export interface ItemRow {
  id: string;
  appId: string;
  boardId: string;
  title: string;
  description: string;
  moderation: string;
  voteCount: number;
  importedVotes: number;
  commentCount: number;
  /** Its recent commenters as the database keeps them (migration 0052): a JSON array, or null. */
  recentCommenters: string | null;
  columnId: string | null;
  columnSlug: string | null;
  columnName: string | null;
  columnColor: string | null;
  versionId: string | null;
  versionLabel: string | null;
  versionReleased: number | null;
  requesterName: string | null;
  requesterPublicId: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A request's recent commenters from its row: up to four, newest first (the fourth only tells
 * that there are more than three).
 */
export function commentersOf(r: Pick<ItemRow, "recentCommenters">): Commenter[] {
  return r.recentCommenters === null ? [] : (JSON.parse(r.recentCommenters) as Commenter[]);
}

/** A row as the wire item of §7.4; `personal` says what only the viewer sees; `tags` its public tags. */
export function toItem(r: ItemRow, personal: { hasVoted: boolean; isOwnRequest: boolean }, tags: PublicTag[] = []): FeatureRequestItem {
  const commenters = commentersOf(r);
  return {
    id: r.id,
    appId: r.appId,
    title: r.title,
    description: r.description,
    status: r.columnSlug ?? "open",
    approved: r.moderation === "approved",
    voteCount: r.voteCount,
    importedVotes: r.importedVotes,
    commentCount: r.commentCount,
    hasVoted: personal.hasVoted,
    isOwnRequest: personal.isOwnRequest,
    columnId: r.columnId,
    columnSlug: r.columnSlug,
    columnName: r.columnName,
    columnColor: r.columnColor,
    versionId: r.versionId,
    versionLabel: r.versionLabel,
    releasedVersion: r.versionReleased === 1 ? r.versionLabel : null,
    requesterName: r.requesterName,
    requesterAvatarUrl: null,
    requesterClerkId: r.requesterPublicId,
    recentCommenters: commenters.slice(0, 3),
    hasMoreCommenters: commenters.length > 3,
    boardId: r.boardId,
    tags,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
