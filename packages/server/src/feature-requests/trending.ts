import type { Kysely } from "kysely";
import type { SharedCache } from "../cache/shared-cache.js";
import type { Database } from "../db/schema.js";
import { approvedBy, scopeKey } from "./listed.js";
import type { ListQuery } from "./list-query.js";
import { listedInOrder, votesThenNewest } from "./list-order.js";

/** How far back `trending` counts votes. */
export const TRENDING_WINDOW_DAYS = 7;

/** How long an app's `trending` ranking is reused; see docs/public-api.md. */
export const TRENDING_RANKING_MS = 5_000;

/**
 * Votes cast since `since`, counted per request as `rc.recent`: counted once from the votes' time
 * index, where counting each match's own votes would read every vote of every match.
 */
export function recentVoteCounts(db: Kysely<Database>, since: string) {
  return db
    .selectFrom("featureRequestVotes")
    .select(["featureRequestId", (eb) => eb.fn.countAll<number>().as("recent")])
    .where("createdAt", ">=", since)
    .groupBy("featureRequestId")
    .as("rc");
}

/**
 * The app's public requests voted on since `since`, most recent votes first, then `top` order.
 * Found from the votes (by their time index, joined to their requests: `cross join` keeps SQLite
 * from starting at the app's requests instead). Reading them costs one index entry per recent
 * vote, so with a cache the ranking is computed at most once per {@link TRENDING_RANKING_MS} per
 * app and version filter, and shared by every viewer; votes do not drop it (they would recompute
 * it after every vote), changes to which requests are listed do (the cache's tags).
 */
export async function trendingRanking(db: Kysely<Database>, query: ListQuery, since: string, cache: { shared: SharedCache; tags: string[] } | undefined): Promise<string[]> {
  const compute = async () =>
    (
      await db
        .selectFrom("featureRequestVotes as rv")
        .crossJoin("featureRequests as fr")
        .whereRef("fr.id", "=", "rv.featureRequestId")
        .where("rv.createdAt", ">=", since)
        .where(approvedBy(query))
        .select(["fr.id", (eb) => eb.fn.countAll<number>().as("recent")])
        .groupBy(["fr.id", "fr.voteCount", "fr.createdAt"])
        .orderBy("recent", "desc")
        .$call(votesThenNewest)
        .execute()
    ).map((r) => r.id);
  if (cache === undefined) return compute();
  const key = `fr-trending:${query.appId}:${query.versionId ?? ""}:${scopeKey(query)}`;
  const hit = await cache.shared.get<string[]>(key);
  if (hit !== undefined) return hit;
  const ids = await compute();
  await cache.shared.set(key, ids, { ttlMs: TRENDING_RANKING_MS, tags: cache.tags });
  return ids;
}

/**
 * The ids of a `trending` page: the app's public requests voted on recently first (see
 * {@link trendingRanking}), then `top` order, the viewer's own pending requests of `own` included there.
 * Ordering every request by a count of its recent votes took 200-300 ms on 100k requests.
 */
export async function trendingIds(
  db: Kysely<Database>,
  query: ListQuery,
  since: string,
  page: { offset: number; limit: number },
  cache: { shared: SharedCache; tags: string[] } | undefined,
  own: readonly string[] = [],
): Promise<string[]> {
  const hot = await trendingRanking(db, query, since, cache);
  const fromHot = hot.slice(page.offset, page.offset + page.limit);
  if (fromHot.length === page.limit) return fromHot;
  // The others in `top` order: every request found above is listed, so it appears once in that
  // order, and reading that many rows more than the page needs leaves enough once they are skipped.
  const restOffset = Math.max(0, page.offset - hot.length);
  const restLimit = page.limit - fromHot.length;
  const hotIds = new Set(hot);
  const top = await listedInOrder(db, query, "top", undefined, restOffset + restLimit + hot.length, own);
  const rest = top.filter((r) => !hotIds.has(r.id)).slice(restOffset, restOffset + restLimit);
  return [...fromHot, ...rest.map((r) => r.id)];
}
