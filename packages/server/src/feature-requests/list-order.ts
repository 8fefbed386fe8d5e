import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from "kysely";
import type { Database } from "../db/schema.js";
import { approvedBy, ownPendingBy } from "./listed.js";
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
export function votesThenNewest<Q extends Orderable<Q>>(query: Q): Q {
  return query.orderBy(sql.ref("fr.voteCount"), "desc").orderBy(sql.ref("fr.createdAt"), "desc").orderBy(sql.ref("fr.id"), "desc");
}

/** Rows strictly after `after` in its order. */
export function afterKey(after: After) {
  return (eb: ExpressionBuilder<Database & { fr: Database["featureRequests"] }, "fr">) => {
    const sameVotesOlder = eb.or([eb("fr.createdAt", "<", after.c), eb.and([eb("fr.createdAt", "=", after.c), eb("fr.id", "<", after.i)])]);
    return after.s === "newest" ? sameVotesOlder : eb.or([eb("fr.voteCount", "<", after.v), eb.and([eb("fr.voteCount", "=", after.v), sameVotesOlder])]);
  };
}

/** Negative when `a` comes first in the order (both orders are descending). */
function compareKeys(order: "newest" | "top", a: OrderKey, b: OrderKey): number {
  if (order === "top" && a.voteCount !== b.voteCount) return b.voteCount - a.voteCount;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/**
 * The first `limit` listed requests in `order` after `after`: the approved ones and the viewer's
 * own pending ones, each read in order from its partial index (migration 0011) and merged. Each
 * side reads at most `limit` index entries and rows, however many requests the viewer has waiting
 * for review: only the slice of them that falls in the page is read.
 */
export async function listedInOrder(db: Kysely<Database>, query: ListQuery, order: "newest" | "top", after: After | undefined, limit: number): Promise<OrderKey[]> {
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
  const approved = await slice(approvedBy(query));
  const viewer = query.viewerEndUserId;
  if (viewer === null) return approved;
  const own = await slice(ownPendingBy(query, viewer));
  if (own.length === 0) return approved;
  return [...approved, ...own].sort((a, b) => compareKeys(order, a, b)).slice(0, limit);
}
