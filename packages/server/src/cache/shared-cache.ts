/**
 * A short-lived cache shared by every request of an instance, with tag invalidation so a console
 * write drops every entry of its app at once. Async so that a Redis implementation fits behind it.
 */
export interface SharedCache {
  get<T>(key: string): Promise<T | undefined>;
  /**
   * Several entries at once, in `keys`' order: as `get` for each, read in one pass in process and
   * checked in one round trip to Redis (a page's 50 requests each have an entry of their own).
   */
  getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]>;
  set(key: string, value: unknown, options: SetOptions): Promise<void>;
  /** Several entries at once: as `set` for each, in one round trip to Redis. */
  setMany(entries: ReadonlyArray<CacheEntry>): Promise<void>;
  invalidateTag(tag: string): Promise<void>;
}

/** One entry of {@link SharedCache.setMany}. */
export interface CacheEntry {
  key: string;
  value: unknown;
  options: SetOptions;
}

/** How long an entry lives, which tags drop it, and, when the caller can tell it cheaper than the cache, its size. */
export interface SetOptions {
  ttlMs: number;
  tags: readonly string[];
  /**
   * About how many bytes the value holds, as `approximateBytes` (entry-size.ts) would count them.
   * Without it an in-process cache walks the value to find out: for a listing page, as long as
   * serialising it.
   */
  bytes?: number;
}

/**
 * `load()`'s answer, through `cache` under `key` when there is a cache: a hit is reused, a miss
 * is loaded and stored with `options` (writes drop it by its tags).
 *
 * @example
 * ```ts
 * const rows = await readThrough(ctx.cache, `boards:${appId}`, { ttlMs: 60_000, tags: [appTag(appId)] }, () => listBoards(db, appId));
 * ```
 */
export async function readThrough<T>(
  cache: SharedCache | undefined,
  key: string,
  options: SetOptions,
  load: () => Promise<T>,
): Promise<T> {
  if (cache === undefined) return load();
  const hit = await cache.get<T>(key);
  if (hit !== undefined) return hit;
  const value = await load();
  await cache.set(key, value, options);
  return value;
}
