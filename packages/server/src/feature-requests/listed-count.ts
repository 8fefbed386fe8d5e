import type { Kysely } from "kysely";
import type { SharedCache } from "../cache/shared-cache.js";
import type { Database } from "../db/schema.js";
import { approvedBy, ownPendingBy, scopeKey } from "./listed.js";
import type { ListQuery } from "./list-query.js";

/** How long the count of an app's approved requests may be reused (writes to the app drop it). */
const COUNT_CACHE_MS = 30_000;

/**
 * The listing's total without a search: approved requests (counted from an index and shared
 * between viewers through the cache, the expensive part on large boards) plus the viewer's own
 * pending ones.
 */
export async function countListed(db: Kysely<Database>, query: ListQuery, cache: { shared: SharedCache; tags: string[] } | undefined): Promise<number> {
  const countApproved = async () => {
    const q = db
      .selectFrom("featureRequests as fr")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where(approvedBy(query));
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  let approved: number;
  if (cache === undefined) {
    approved = await countApproved();
  } else {
    const key = `fr-count:${query.appId}:${query.versionId ?? ""}:${scopeKey(query)}`;
    const hit = await cache.shared.get<number>(key);
    approved = hit ?? (await countApproved());
    if (hit === undefined) await cache.shared.set(key, approved, { ttlMs: COUNT_CACHE_MS, tags: cache.tags });
  }
  if (query.viewerEndUserId === null) return approved;
  // Counted from the partial index of the viewer's pending requests alone, no row read (a version
  // filter, which that index does not hold, reads their rows).
  const own = await db
    .selectFrom("featureRequests as fr")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(ownPendingBy(query, query.viewerEndUserId))
    .executeTakeFirstOrThrow();
  return approved + Number(own.n);
}
