import type { Kysely } from "kysely";
import type { SharedCache } from "../cache/shared-cache.js";
import { appTag, requestCommentsTag } from "../context.js";
import type { Database } from "../db/schema.js";
import { firstPublicComments } from "./comment-pages.js";

/**
 * How long the first page of a request's comments may be served from the shared cache: as long
 * as an anonymous listing page may be stale. A public comment drops its
 * request's page at once ({@link requestCommentsTag}), a console write (hiding a comment,
 * moderating, merging or deleting the request) its app's; the time bounds a read that raced a
 * comment and stored what it read before it.
 */
export const COMMENT_PAGE_CACHE_SECONDS = 10;

/** A request's first page of public comments, with its app and board (see `firstPublicComments`). */
export type FirstComments = NonNullable<Awaited<ReturnType<typeof firstPublicComments>>>;

/**
 * The first page of a public request's comments (what a viewer opening the request reads), kept
 * in the shared cache per request and page size. The page is the same for every caller (the
 * caller's access is checked against the app and board it carries); read from the database, it
 * costs what the thread holds, up to 200 comments with their authors and parents, and a busy
 * thread is read far more often than it is written to. A request that is not public is not kept.
 */
export async function cachedFirstComments(cache: SharedCache, db: Kysely<Database>, featureRequestId: string, limit: number): Promise<FirstComments | undefined> {
  const key = `fr-comments:${featureRequestId}:${limit}`;
  const hit = await cache.get<FirstComments>(key);
  if (hit !== undefined) return hit;
  const first = await firstPublicComments(db, featureRequestId, limit);
  if (first !== undefined) {
    await cache.set(key, first, { ttlMs: COMMENT_PAGE_CACHE_SECONDS * 1000, tags: [appTag(first.appId), requestCommentsTag(featureRequestId)] });
  }
  return first;
}
