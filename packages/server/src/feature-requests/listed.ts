import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Database } from "../db/schema.js";
import type { ListQuery } from "./list-query.js";

/** The listing's requests, read under the alias `fr`. */
type Listed = ExpressionBuilder<Database & { fr: Database["featureRequests"] }, "fr">;

type Scope = Pick<ListQuery, "appId" | "versionId" | "boardIds" | "tagIds">;

/** The copies of the requests' places in the `top` order (migration 0046), read under the alias `ft`. */
type Ranked = ExpressionBuilder<Database & { ft: Database["featureRequestTop"] }, "ft">;

/**
 * Where a listed request may be, on the request (`fr`) or its copy in the `top` order (`ft`): its
 * app, or, filtered to one board, that board alone (its id implies the app, and naming only the
 * board lets the planners walk the board's indexes, migrations 0026 and 0046); several boards
 * (those a caller may see) within the app.
 */
function placedBy<A extends "fr" | "ft">(query: Scope, eb: ExpressionBuilder<Database & Record<A, { appId: string; boardId: string }>, A>, alias: A) {
  const [app, board] = [sql.ref<string>(`${alias}.appId`), sql.ref<string>(`${alias}.boardId`)];
  const boards = query.boardIds;
  if (boards === undefined) return [eb(app, "=", query.appId)];
  if (boards.length === 1) return [eb(board, "=", boards[0]!)];
  return [eb(app, "=", query.appId), eb(board, "in", boards.length > 0 ? [...boards] : [""])];
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
      ...placedBy(query, eb, "fr"),
      eb("fr.moderation", "=", sql.lit("approved")),
      eb("fr.mergedIntoId", "is", null),
      ...(query.versionId === undefined ? [] : [eb("fr.versionId", "=", query.versionId)]),
      ...hasEveryTag(query.tagIds ?? []),
    ]);
}

/**
 * The app's public requests as {@link approvedBy} finds them, on their copies in the `top` order
 * (`feature_request_top` as `ft`, migration 0046), whose indexes hold that order: a board or the
 * app, listed, and a version filter checked on each request by its primary key.
 */
export function approvedTopBy(query: Omit<Scope, "tagIds">) {
  return (eb: Ranked) =>
    eb.and([
      ...placedBy(query, eb, "ft"),
      eb("ft.listed", "=", sql.lit(1)),
      ...(query.versionId === undefined
        ? []
        : [eb.exists(eb.selectFrom("featureRequests as fr").select("fr.id").whereRef("fr.id", "=", "ft.id").where("fr.versionId", "=", query.versionId))]),
    ]);
}

/**
 * The viewer's own requests still waiting for review that a listing shows: those of `own` (the
 * window of their newest pending ones, see own-pending.ts) that the filters keep, each read by its
 * primary key, so a page never reads more of them than the window holds. Neither the app nor the
 * states are named again: the window was read with them a moment before, and naming them let the
 * planners prefer walking the app's requests (SQLite) or every pending request of the app (the
 * partial indexes of migration 0011, PostgreSQL) to looking up these few ids. A request approved
 * in that moment is listed once (see `listedInOrder`); one merged or declined in it is still shown
 * on that one page, as a cached page would show it.
 */
export function ownPendingBy(query: Scope, own: readonly string[]) {
  return (eb: Listed) =>
    eb.and([
      eb("fr.id", "in", own.length > 0 ? [...own] : [""]),
      ...(query.versionId === undefined ? [] : [eb("fr.versionId", "=", query.versionId)]),
      ...(query.boardIds === undefined ? [] : [eb("fr.boardId", "in", query.boardIds.length > 0 ? [...query.boardIds] : [""])]),
      ...hasEveryTag(query.tagIds ?? []),
    ]);
}

/** The listing's filter: the app's approved requests plus the viewer's own pending ones of `own`, merged duplicates excluded. */
export function listedBy(query: ListQuery, own: readonly string[]) {
  return (eb: Listed) => (query.viewerEndUserId === null || own.length === 0 ? approvedBy(query)(eb) : eb.or([approvedBy(query)(eb), ownPendingBy(query, own)(eb)]));
}

/** Names a listing's board and tag filters in cache keys. */
export function scopeKey(query: Pick<ListQuery, "boardIds" | "tagIds">): string {
  return `${query.boardIds?.join(",") ?? "*"}|${[...new Set(query.tagIds ?? [])].sort().join(",")}`;
}
