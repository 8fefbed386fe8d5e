import type { FeatureRequestItem, PublicTag } from "@tidings/protocol";
import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SqlBool } from "kysely";
import { executeNamed } from "../db/named-statements.js";
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

/** A row as the wire item of §7.4; `personal` says what only the viewer sees; `tags` its public tags. */
export function toItem(r: ItemRow, commenters: Commenter[], personal: { hasVoted: boolean; isOwnRequest: boolean }, tags: PublicTag[] = []): FeatureRequestItem {
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

/**
 * The latest distinct commenters (up to 4, to know whether there are more than 3) per request,
 * hidden comments excluded: the same answer as the public listing's.
 */
export async function recentCommenters(db: Kysely<Database>, ids: string[]): Promise<Map<string, Commenter[]>> {
  const out = new Map<string, Commenter[]>();
  if (ids.length === 0) return out;
  const rows = await executeNamed(
    db,
    db
      .selectFrom("featureRequestComments as cm")
      .leftJoin("endUsers as eu", "eu.id", "cm.endUserId")
      .select(["cm.featureRequestId", "cm.authorName", "cm.isTeam", "eu.publicId"])
      .where(idIn(db, "cm.featureRequestId", ids))
      .where("cm.isHidden", "=", 0)
      .orderBy("cm.createdAt", "desc")
      .orderBy("cm.id", "desc"),
  );
  const seen = new Map<string, Set<string>>();
  for (const row of rows) {
    const list = out.get(row.featureRequestId) ?? [];
    const who = seen.get(row.featureRequestId) ?? new Set<string>();
    const key = row.publicId ?? (row.isTeam === 1 ? "team" : `name:${row.authorName ?? ""}`);
    if (list.length < 4 && !who.has(key)) {
      who.add(key);
      list.push({ authorName: row.authorName, clerkUserId: row.publicId, avatarUrl: null });
    }
    seen.set(row.featureRequestId, who);
    out.set(row.featureRequestId, list);
  }
  return out;
}

/**
 * `column in (ids)`: on PostgreSQL as one array parameter, so the statement's text is the same
 * for any number of ids and it can be prepared once (see `executeNamed`).
 */
export function idIn(db: Kysely<Database>, column: string, ids: string[]): RawBuilder<SqlBool> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return sql<SqlBool>`${sql.ref(column)} = any(${sql.val(ids)}::text[])`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(ids)})`;
}
