import type { Redis } from "ioredis";
import type { Clock } from "../clock.js";
import { DEFAULT_CACHE_LIMITS, MemoryCache, type CacheLimits, type CacheStats } from "./memory-cache.js";
import type { CacheEntry, SetOptions, SharedCache } from "./shared-cache.js";

/** Where the cache reports an outage and its end (a Fastify logger fits). */
export interface CacheLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** The Redis keys of one cache: a prefix shared by every instance of a deployment. */
export const DEFAULT_CACHE_PREFIX = "tidings:cache:";

// A Redis on loopback or a LAN answers in well under a millisecond; past this the request goes
// to the database instead of waiting, and the cache treats Redis as gone.
const COMMAND_TIMEOUT_MS = 500;
// While Redis is gone, one request at most this often checks (in the background) whether it is back.
const PROBE_INTERVAL_MS = 1000;

interface Local {
  value: unknown;
  tags: readonly string[];
  /** The epoch and the tags' generations when the value was stored, in `#generationKeys` order. */
  generations: readonly (string | null)[];
}

/**
 * {@link SharedCache} for several instances sharing one Redis: values stay in each instance's
 * memory (a {@link MemoryCache}), and Redis holds one generation counter per tag plus an epoch.
 * `invalidateTag` increments the tag's counter (INCR); `get` reads the epoch and the entry's tag
 * counters in one round trip (MGET) and serves the entry only if none moved since it was stored.
 * So once an invalidation on any instance is acknowledged, no instance serves the dropped entry,
 * and a miss costs no round trip at all.
 *
 * When Redis fails (refused, closed, or slower than 500 ms) the cache drops its entries and
 * answers "not cached" to every read, logging one warning per outage; it checks in the
 * background at most once a second whether Redis is back, and on return increments the epoch,
 * which drops every instance's entries (invalidations sent during the outage may have been
 * lost), then logs that caching resumed.
 *
 * @example
 * ```ts
 * const cache = await openRedisCache("redis://127.0.0.1:6379", systemClock, app.log);
 * await cache.set("config:app_demo", body, { ttlMs: 30_000, tags: ["app:app_1"] });
 * await cache.invalidateTag("app:app_1"); // every instance misses from now on
 * ```
 */
export class RedisCache implements SharedCache {
  #local: MemoryCache;
  #down = false;
  #nextProbeAt = Number.NEGATIVE_INFINITY;
  #closing = false;
  readonly #epochKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    private readonly log: CacheLog,
    private readonly prefix = DEFAULT_CACHE_PREFIX,
    private readonly limits: CacheLimits = DEFAULT_CACHE_LIMITS,
  ) {
    this.#local = new MemoryCache(clock, limits);
    this.#epochKey = `${prefix}epoch`;
    // A lost connection may hide invalidations from other instances, even without a failed command.
    redis.on("close", () => {
      if (!this.#closing) this.#fail(new Error("connection to Redis closed"));
    });
  }

  /** What this instance keeps in memory (values live here; Redis carries the invalidations). */
  stats(): CacheStats {
    return this.#local.stats();
  }

  /** True while Redis is unreachable and every read goes to the database. */
  get degraded(): boolean {
    return this.#down;
  }

  async get<T>(key: string): Promise<T | undefined> {
    return (await this.getMany<T>([key]))[0];
  }

  async getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]> {
    const none = keys.map(() => undefined);
    if (!this.#usable()) return none;
    const local = this.#local;
    const entries = await local.getMany<Local>(keys);
    const held = entries.filter((entry) => entry !== undefined);
    if (held.length === 0) return none;
    let now: (string | null)[][];
    try {
      now = await this.#generationsOf(held.map((entry) => entry.tags));
    } catch (error) {
      this.#fail(error as Error);
      return none;
    }
    // An outage began while we asked: whatever it hid, these entries are not to be trusted.
    if (local !== this.#local) return none;
    let i = 0;
    return entries.map((entry) => (entry !== undefined && sameGenerations(entry.generations, now[i++]!) ? (entry.value as T) : undefined));
  }

  async setMany(entries: ReadonlyArray<CacheEntry>): Promise<void> {
    const local = this.#local;
    if (entries.length === 0 || !this.#usable()) return;
    try {
      const generations = await this.#generationsOf(entries.map(({ options }) => options.tags));
      await local.setMany(entries.map(({ key, value, options }, i) => ({ key, value: { value, tags: options.tags, generations: generations[i]! } satisfies Local, options })));
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  set(key: string, value: unknown, options: SetOptions): Promise<void> {
    return this.setMany([{ key, value, options }]);
  }

  async invalidateTag(tag: string): Promise<void> {
    // This instance stops serving the tag's entries even if Redis cannot be told.
    await this.#local.invalidateTag(tag);
    if (!this.#usable()) return;
    try {
      await this.redis.incr(this.#tagKey(tag));
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  /** Treats Redis as gone until a probe finds it back (its first connection failed, say); logs once per outage. */
  degrade(error: Error): void {
    this.#fail(error);
  }

  /** Stops reporting the connection's end as an outage; the caller closes the connection. */
  close(): void {
    this.#closing = true;
  }

  #tagKey(tag: string): string {
    return `${this.prefix}tag:${tag}`;
  }

  #generationKeys(tags: readonly string[]): string[] {
    return [this.#epochKey, ...tags.map((tag) => this.#tagKey(tag))];
  }

  /** The epoch and the tags' generations of each set of tags, in `#generationKeys` order, in one MGET (each key asked once). */
  async #generationsOf(tagSets: ReadonlyArray<readonly string[]>): Promise<(string | null)[][]> {
    const keySets = tagSets.map((tags) => this.#generationKeys(tags));
    const slots = new Map<string, number>();
    for (const keys of keySets) for (const key of keys) if (!slots.has(key)) slots.set(key, slots.size);
    const values = await this.redis.mget([...slots.keys()]);
    return keySets.map((keys) => keys.map((key) => values[slots.get(key)!] ?? null));
  }

  /** Whether Redis may be used now; while it is down, starts a background probe when one is due. */
  #usable(): boolean {
    if (!this.#down) return true;
    const now = this.clock.now().getTime();
    if (now >= this.#nextProbeAt && this.redis.status === "ready") {
      this.#nextProbeAt = now + PROBE_INTERVAL_MS;
      void this.#probe();
    }
    return false;
  }

  async #probe(): Promise<void> {
    try {
      // Drops every instance's entries: an invalidation sent during the outage may have been lost.
      await this.redis.incr(this.#epochKey);
    } catch {
      return;
    }
    if (!this.#down) return;
    this.#local = new MemoryCache(this.clock, this.limits);
    this.#down = false;
    this.log.info({}, "shared cache: Redis is back, caching resumed");
  }

  #fail(error: Error): void {
    this.#local = new MemoryCache(this.clock, this.limits);
    if (this.#down) return;
    this.#down = true;
    this.#nextProbeAt = this.clock.now().getTime() + PROBE_INTERVAL_MS;
    this.log.warn({ err: error }, "shared cache: Redis unreachable, serving without cache until it is back");
  }
}

function sameGenerations(stored: readonly (string | null)[], now: readonly (string | null)[]): boolean {
  return stored.length === now.length && stored.every((generation, i) => generation === now[i]);
}

/** A {@link RedisCache} and how to release its connection. */
export interface OpenedRedisCache {
  cache: RedisCache;
  close(): Promise<void>;
}

/**
 * Connects a {@link RedisCache} to `redisUrl`. Never fails: an unreachable Redis makes a cache
 * that starts degraded (logged) and resumes once Redis answers.
 *
 * @example
 * ```ts
 * const { cache, close } = await openRedisCache(config.redisUrl, systemClock, app.log);
 * ```
 */
export async function openRedisCache(redisUrl: string, clock: Clock, log: CacheLog, prefix = DEFAULT_CACHE_PREFIX, limits: CacheLimits = DEFAULT_CACHE_LIMITS): Promise<OpenedRedisCache> {
  // Loaded here, so that an instance without REDIS_URL never loads the client.
  const { Redis } = await import("ioredis");
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    // During an outage a command fails at once instead of queueing until Redis is back.
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
  });
  // Failures surface (once per outage) through the cache; without a listener ioredis prints each.
  redis.on("error", () => {});
  const cache = new RedisCache(redis, clock, log, prefix, limits);
  await redis.connect().catch((error: unknown) => cache.degrade(error as Error));
  return {
    cache,
    close: async () => {
      cache.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
