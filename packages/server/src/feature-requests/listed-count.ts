import { sql, type Kysely } from "kysely";
import type { SharedCache } from "../cache/shared-cache.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { approvedBy, ownPendingBy, scopeKey } from "./listed.js";
import type { ListQuery } from "./list-query.js";

/** How long the count of an app's approved requests may be reused (writes to the app drop it). */
const COUNT_CACHE_MS = 30_000;

/**
 * The listing's total without a search: approved requests (counted from an index and shared
 * between viewers through the cache, the expensive part on large boards) plus the viewer's own
 * pending ones of `own` (their newest, see own-pending.ts) that the filters keep.
 */
export async function countListed(
  db: Kysely<Database>,
  query: ListQuery,
  cache: { shared: SharedCache; tags: string[] } | undefined,
  own: readonly string[] = [],
): Promise<number> {
  const countApproved = async () => {
    const [tagId, ...others] = [...new Set(query.tagIds ?? [])];
    if (tagId !== undefined) {
      // A tag's listed requests are counted from the tag's rows (migration 0030); only a further
      // filter reads the requests themselves.
      const alone = others.length === 0 && query.boardIds === undefined && query.versionId === undefined;
      const tagged = db
        .selectFrom("featureRequestTags as t0")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("t0.tagId", "=", tagId)
        .where("t0.listed", "=", sql.lit(1));
      const q = alone ? tagged : tagged.crossJoin("featureRequests as fr").whereRef("fr.id", "=", "t0.featureRequestId").where(approvedBy({ ...query, tagIds: others }));
      return Number((await q.executeTakeFirstOrThrow()).n);
    }
    // The whole app's or one board's count (every first page's) by a prepared statement.
    if (query.versionId === undefined && query.boardIds === undefined) return Number((await countOfApp.first(db, { appId: query.appId }))!.n);
    if (query.versionId === undefined && query.boardIds?.length === 1) return Number((await countOfBoard.first(db, { boardId: query.boardIds[0]! }))!.n);
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
    const hit = await cache.shared.get<number>(countKey(query));
    approved = hit ?? (await countApproved());
    if (hit === undefined) await keepCount(query, cache, approved);
  }
  if (query.viewerEndUserId === null || own.length === 0) return approved;
  // At most the window's rows, each by its primary key.
  const mine = await db
    .selectFrom("featureRequests as fr")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(ownPendingBy(query, own))
    .executeTakeFirstOrThrow();
  return approved + Number(mine.n);
}

const countKey = (query: ListQuery) => `fr-count:${query.appId}:${query.versionId ?? ""}:${scopeKey(query)}`;

/** Keeps in the cache the count of approved requests `query` lists (without a viewer), as {@link countListed} does with what it counts. */
export function keepCount(query: ListQuery, cache: { shared: SharedCache; tags: string[] }, approved: number): Promise<void> {
  return cache.shared.set(countKey(query), approved, { ttlMs: COUNT_CACHE_MS, tags: cache.tags });
}

const approvedCount = <P extends Record<string, unknown>>(scope: (p: P) => Pick<ListQuery, "appId" | "boardIds">) =>
  preparedQuery<P, { n: number | string }>((db, p) =>
    db
      .selectFrom("featureRequests as fr")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where(approvedBy({ ...scope(p as P), versionId: undefined })),
  );
const countOfApp = approvedCount<{ appId: string }>((p) => ({ appId: p.appId, boardIds: undefined }));
// A board names its app (see listed.ts).
const countOfBoard = approvedCount<{ boardId: string }>((p) => ({ appId: "", boardIds: [p.boardId] }));
