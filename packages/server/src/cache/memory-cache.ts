import { LRUCache } from "lru-cache";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import { approximateBytes, ENTRY_OVERHEAD_BYTES } from "./entry-size.js";
import type { CacheEntry, SetOptions, SharedCache } from "./shared-cache.js";

interface Entry {
  value: unknown;
  expiresAt: number;
  tags: readonly string[];
  /** The value's size when the caller gave it (see {@link SetOptions}). */
  bytes: number | undefined;
}

/** What an in-process cache holds now (the `tidings_cache_*` gauges). */
export interface CacheStats {
  entries: number;
  bytes: number;
}

/** How much an instance's in-process cache may hold. */
export interface CacheLimits {
  /** About this many bytes of cached values (see entry-size.ts); the least recently used go first. */
  maxBytes: number;
  /** At most this many entries, whatever their size (none when absent: the bytes bound them). */
  maxEntries?: number;
}

/** 64 MiB: the pages, configs and counts of a few thousand apps' busiest reads. */
export const DEFAULT_CACHE_LIMITS: CacheLimits = { maxBytes: 64 * 1024 * 1024 };

/** The limits `TIDINGS_CACHE_MAX_MB` sets. */
export function cacheLimits(config: Pick<Config, "cacheMaxMb">): CacheLimits {
  return { maxBytes: config.cacheMaxMb * 1024 * 1024 };
}

// Expired entries are swept at most this often, so the sweep costs nothing per call.
const SWEEP_INTERVAL_MS = 1000;

/**
 * In-process implementation, timed by the injected clock. Bounded twice: by about `maxBytes` of
 * values (and `maxEntries` when given), the least recently used evicted first (`lru-cache` keeps
 * the order and the sizes), and none kept more than about a second past its TTL (expired entries
 * are swept at most once a second), so keys that are never asked for again, such as the pages of
 * one-off searches, do not stay in memory until enough newer ones push them out. Its memory is
 * bounded by the limit, not by the number of apps or queries the instance serves.
 *
 * @example
 * ```ts
 * const cache = new MemoryCache(systemClock);
 * await cache.set("config:app_demo", body, { ttlMs: 30_000, tags: ["app:app_1"] });
 * await cache.invalidateTag("app:app_1");
 * ```
 */
export class MemoryCache implements SharedCache {
  readonly #entries: LRUCache<string, Entry>;
  readonly #byTag = new Map<string, Set<string>>();
  #nextSweepAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    limits: CacheLimits = DEFAULT_CACHE_LIMITS,
  ) {
    this.#entries = new LRUCache<string, Entry>({
      maxSize: limits.maxBytes,
      ...(limits.maxEntries === undefined ? {} : { max: limits.maxEntries }),
      sizeCalculation: (entry, key) => ENTRY_OVERHEAD_BYTES + key.length + (entry.bytes ?? approximateBytes(entry.value)),
      // Every way an entry leaves (evicted, replaced, deleted) takes it out of its tags' sets.
      dispose: (entry, key) => this.#untag(key, entry.tags),
    });
  }

  /** Entries held in memory, expired ones not yet swept included (for tests and metrics). */
  get size(): number {
    return this.#entries.size;
  }

  /** Its entries and about how many bytes they hold (see entry-size.ts). */
  stats(): CacheStats {
    return { entries: this.#entries.size, bytes: this.#entries.calculatedSize };
  }

  get<T>(key: string): Promise<T | undefined> {
    return Promise.resolve(this.#read<T>(key, this.clock.now().getTime()));
  }

  getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]> {
    const now = this.clock.now().getTime();
    return Promise.resolve(keys.map((key) => this.#read<T>(key, now)));
  }

  set(key: string, value: unknown, options: SetOptions): Promise<void> {
    this.#write(key, value, options, this.clock.now().getTime());
    return Promise.resolve();
  }

  setMany(entries: ReadonlyArray<CacheEntry>): Promise<void> {
    const now = this.clock.now().getTime();
    for (const { key, value, options } of entries) this.#write(key, value, options, now);
    return Promise.resolve();
  }

  invalidateTag(tag: string): Promise<void> {
    for (const key of [...(this.#byTag.get(tag) ?? [])]) this.#entries.delete(key);
    this.#byTag.delete(tag);
    return Promise.resolve();
  }

  #read<T>(key: string, now: number): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  #write(key: string, value: unknown, options: SetOptions, now: number): void {
    if (now >= this.#nextSweepAt) this.#sweep(now);
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: now + options.ttlMs, tags: options.tags, bytes: options.bytes });
    // A value larger than the whole limit is not kept.
    if (!this.#entries.has(key)) return;
    for (const tag of options.tags) {
      let keys = this.#byTag.get(tag);
      if (keys === undefined) this.#byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  #sweep(now: number): void {
    this.#nextSweepAt = now + SWEEP_INTERVAL_MS;
    // TTLs differ between entries, so every entry is looked at (a few thousand at most, once a second).
    const expired: string[] = [];
    for (const [key, entry] of this.#entries.entries()) if (entry.expiresAt <= now) expired.push(key);
    for (const key of expired) this.#entries.delete(key);
  }

  #untag(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.#byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#byTag.delete(tag);
    }
  }
}
