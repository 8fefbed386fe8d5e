import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Database } from "../db/schema.js";
import type { ListQuery } from "./list-query.js";

/** The listing's requests, read under the alias `fr`. */
type Listed = ExpressionBuilder<Database & { fr: Database["featureRequests"] }, "fr">;

type Scope = Pick<ListQuery, "appId" | "versionId" | "boardIds" | "tagIds">;

/**
 * Where a listed request may be: its app, or, filtered to one board, that board alone (its id
 * implies the app, and naming only the board lets the planners walk the board's partial indexes
 * of migration 0026); several boards (those a caller may see) within the app.
 */
function placedBy(query: Scope, eb: Listed) {
  const boards = query.boardIds;
  if (boards === undefined) return [eb("fr.appId", "=", query.appId)];
  if (boards.length === 1) return [eb("fr.boardId", "=", boards[0]!)];
  return [eb("fr.appId", "=", query.appId), eb("fr.boardId", "in", boards.length > 0 ? [...boards] : [""])];
}

/**
 * Every tag given must be on the request read as `fr`: one lookup of the tag rows' primary key per
 * tag and request. The public listing and the console's list both filter by it.
 */
export function hasEveryTag(tagIds: Iterable<string>): Array<Expression<SqlBool>> {
  const eb = expressionBuilder<Database & { fr: Database["featureRequests"] }, "fr">();
  return [...new Set(tagIds)].map((tagId) =>
    eb.exists(eb.selectFrom("featureRequestTags as frt").select("frt.tagId").whereRef("frt.featureRequestId", "=", "fr.id").where("frt.tagId", "=", tagId)),
  );
}

/**
 * The app's public requests: approved and not merged. The states are literals, not parameters, so
 * the planners can use the partial indexes of migrations 0011 and 0026, which hold these rows alone.
 */
export function approvedBy(query: Scope) {
  return (eb: Listed) =>
    eb.and([
      ...placedBy(query, eb),
      eb("fr.moderation", "=", sql.lit("approved")),
      eb("fr.mergedIntoId", "is", null),
      ...(query.versionId === undefined ? [] : [eb("fr.versionId", "=", query.versionId)]),
      ...hasEveryTag(query.tagIds ?? []),
    ]);
}

/** The viewer's own requests still waiting for review (not merged), likewise literal for the partial indexes. */
export function ownPendingBy(query: ListQuery, viewer: string) {
  return (eb: Listed) =>
    eb.and([
      eb("fr.appId", "=", query.appId),
      eb("fr.requesterEndUserId", "=", viewer),
      eb("fr.moderation", "=", sql.lit("pending")),
      eb("fr.mergedIntoId", "is", null),
      ...(query.versionId === undefined ? [] : [eb("fr.versionId", "=", query.versionId)]),
      ...(query.boardIds === undefined ? [] : [eb("fr.boardId", "in", query.boardIds.length > 0 ? [...query.boardIds] : [""])]),
      ...hasEveryTag(query.tagIds ?? []),
    ]);
}

/** The listing's filter: the app's approved requests plus the viewer's own pending ones, merged duplicates excluded. */
export function listedBy(query: ListQuery) {
  const viewer = query.viewerEndUserId;
  return (eb: Listed) => (viewer === null ? approvedBy(query)(eb) : eb.or([approvedBy(query)(eb), ownPendingBy(query, viewer)(eb)]));
}

/** Names a listing's board and tag filters in cache keys. */
export function scopeKey(query: Pick<ListQuery, "boardIds" | "tagIds">): string {
  return `${query.boardIds?.join(",") ?? "*"}|${[...new Set(query.tagIds ?? [])].sort().join(",")}`;
}
