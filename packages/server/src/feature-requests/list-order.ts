import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from "kysely";
import type { Database } from "../db/schema.js";
import { approvedBy, approvedTopBy, ownPendingBy } from "./listed.js";
import type { ListQuery } from "./list-query.js";

/** Where a request stands in the `newest` or `top` order. */
export interface OrderKey {
  id: string;
  voteCount: number;
  createdAt: string;
}

/** A keyset cursor's position, in the order it was issued for. */
export type After = { s: "newest"; c: string; i: string } | { s: "top"; v: number; c: string; i: string };

/** A query Kysely can order further, over `featureRequests` or a subquery of it, named `fr`. */
interface Orderable<Q> {
  orderBy(expression: RawBuilder<unknown>, direction: "desc"): Q;
}

/**
 * Most votes first, then newest, then by id: the `top` order, and the order within a search's
 * tier of equally relevant matches on both engines.
 *
 * @example
 * ```ts
 * db.selectFrom("featureRequests as fr").select("fr.id").$call(votesThenNewest).limit(10);
 * ```
 */
export function votesThenNewest<Q extends Orderable<Q>>(query: Q, columns: OrderColumns = REQUEST_ORDER): Q {
  return query.orderBy(sql.ref(columns.voteCount), "desc").orderBy(sql.ref(columns.createdAt), "desc").orderBy(sql.ref(columns.id), "desc");
}

/** {@link votesThenNewest} read from the requests' copies in the `top` order (`ft`, migration 0046). */
export function copiesVotesThenNewest<Q extends Orderable<Q>>(query: Q): Q {
  return votesThenNewest(query, TOP_ORDER);
}

/**
 * The columns an order is read from: the request's own, their copies in the `top` order (`ft`,
 * migration 0046), or their copies on a tag's rows (`t0`, migrations 0030 and 0038).
 */
interface OrderColumns {
  voteCount: string;
  createdAt: string;
  id: string;
}
const REQUEST_ORDER: OrderColumns = { voteCount: "fr.voteCount", createdAt: "fr.createdAt", id: "fr.id" };
const TOP_ORDER: OrderColumns = { voteCount: "ft.voteCount", createdAt: "ft.createdAt", id: "ft.id" };
const TAG_ORDER: OrderColumns = { voteCount: "t0.requestVoteCount", createdAt: "t0.requestCreatedAt", id: "t0.featureRequestId" };

/** Rows strictly after `after` in its order, compared on `columns` (so an index of them can seek to it). */
export function afterKey(after: After, columns: OrderColumns = REQUEST_ORDER) {
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>): Expression<SqlBool> => {
    const [votes, created, id] = [sql.ref(columns.voteCount), sql.ref(columns.createdAt), sql.ref(columns.id)];
    const sameVotesOlder = eb.or([eb(created, "<", after.c), eb.and([eb(created, "=", after.c), eb(id, "<", after.i)])]);
    return after.s === "newest" ? sameVotesOlder : eb.or([eb(votes, "<", after.v), eb.and([eb(votes, "=", after.v), sameVotesOlder])]);
  };
}

/** Negative when `a` comes first in the order (both orders are descending). */
export function compareKeys(order: "newest" | "top", a: OrderKey, b: OrderKey): number {
  if (order === "top" && a.voteCount !== b.voteCount) return b.voteCount - a.voteCount;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/**
 * The first `limit` approved requests carrying every tag of the query, in `order` after `after`,
 * read in order from the first tag's rows (their copies of their request's state, time and vote
 * count, migrations 0030 and 0038): a page reads about as many rows as it shows, however few
 * requests carry the tag and however its requests' votes fall. Walking the app's order and looking
 * up each request's tags instead read a hundred requests per one shown for a tag on one in a
 * hundred, and thousands for a tag whose requests all sit in the middle of the app's `top` order.
 */
function taggedInOrder(db: Kysely<Database>, query: ListQuery, tagId: string, order: "newest" | "top", after: After | undefined, limit: number) {
  const others = [...new Set(query.tagIds)].filter((id) => id !== tagId);
  let q = db
    .selectFrom("featureRequestTags as t0")
    .where("t0.tagId", "=", tagId)
    .where("t0.listed", "=", sql.lit(1))
    .select([
      "t0.featureRequestId as id",
      "t0.requestCreatedAt as createdAt",
      order === "top" ? sql<number>`${sql.ref("t0.requestVoteCount")}`.as("voteCount") : sql<number>`0`.as("voteCount"),
    ]);
  // A tag is its app's and its rows say whether their request is listed, so the tag alone is
  // read from its index alone; a board, a version or another tag is checked on each request
  // (`cross join` keeps SQLite from starting at the app's requests and looking for the tag on each).
  if (others.length > 0 || query.boardIds !== undefined || query.versionId !== undefined) {
    q = q.crossJoin("featureRequests as fr").whereRef("fr.id", "=", "t0.featureRequestId").where(approvedBy({ ...query, tagIds: others }));
  }
  if (after !== undefined) q = q.where(afterKey(after, TAG_ORDER));
  if (order === "top") q = q.orderBy("t0.requestVoteCount", "desc");
  return q.orderBy("t0.requestCreatedAt", "desc").orderBy("t0.featureRequestId", "desc").limit(limit).execute();
}

/**
 * The first `limit` approved requests of `query` (no tag filter) in the `top` order after `after`,
 * read in order from their copies' index (migration 0046) alone, but for a version filter, checked
 * on each request.
 */
function topInOrder(db: Kysely<Database>, query: Omit<ListQuery, "tagIds">, after: After | undefined, limit: number): Promise<OrderKey[]> {
  let q = approvedInTopOrder(db, query).select(["ft.id", "ft.createdAt", "ft.voteCount"]);
  if (after !== undefined) q = q.where(afterKey(after, TOP_ORDER));
  return q.limit(limit).execute();
}

/** The approved requests of `query` (no tag filter) as their copies in the `top` order (`ft`, migration 0046), in that order. */
export function approvedInTopOrder(db: Kysely<Database>, query: Pick<ListQuery, "appId" | "boardIds" | "versionId">) {
  return db.selectFrom("featureRequestTop as ft").where(approvedTopBy(query)).$call(copiesVotesThenNewest);
}

/**
 * The first `limit` listed requests in `order` after `after`: the approved ones, read in order
 * from their partial index (migration 0011; `top`, from their copies, see {@link topInOrder};
 * with a tag filter, the tag's rows, see {@link taggedInOrder}), and the viewer's own pending ones of `own`
 * (the window of their newest, see own-pending.ts, read by primary key), merged. The approved side
 * reads at most `limit` index entries and rows, the viewer's side at most the window's, however
 * many requests the viewer has waiting for review.
 */
export async function listedInOrder(
  db: Kysely<Database>,
  query: ListQuery,
  order: "newest" | "top",
  after: After | undefined,
  limit: number,
  own: readonly string[] = [],
): Promise<OrderKey[]> {
  const slice = (filter: ReturnType<typeof approvedBy>) => {
    // Votes only where they order: `newest` is then read from its index alone.
    let q = db
      .selectFrom("featureRequests as fr")
      .where(filter)
      .select(["fr.id", "fr.createdAt", order === "top" ? sql<number>`${sql.ref("fr.voteCount")}`.as("voteCount") : sql<number>`0`.as("voteCount")]);
    if (after !== undefined) q = q.where(afterKey(after));
    if (order === "top") q = q.orderBy("fr.voteCount", "desc");
    return q.orderBy("fr.createdAt", "desc").orderBy("fr.id", "desc").limit(limit).execute();
  };
  const tagId = query.tagIds?.[0];
  const approved =
    tagId !== undefined
      ? await taggedInOrder(db, query, tagId, order, after, limit)
      : order === "top"
        ? await topInOrder(db, query, after, limit)
        : await slice(approvedBy(query));
  if (query.viewerEndUserId === null || own.length === 0) return approved;
  const listed = new Set(approved.map((r) => r.id));
  // A request approved since the window was read is among the approved already.
  const mine = (await slice(ownPendingBy(query, own))).filter((r) => !listed.has(r.id));
  if (mine.length === 0) return approved;
  return [...approved, ...mine].sort((a, b) => compareKeys(order, a, b)).slice(0, limit);
}
