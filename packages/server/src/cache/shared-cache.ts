import type { Clock } from "../clock.js";

/**
 * A short-lived cache shared by every request of an instance, with tag invalidation so a console
 * write drops every entry of its app at once. Async so that a Redis implementation fits behind it.
 */
export interface SharedCache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, options: { ttlMs: number; tags: readonly string[] }): Promise<void>;
  invalidateTag(tag: string): Promise<void>;
}

interface Entry {
  value: unknown;
  expiresAt: number;
  tags: readonly string[];
}

// Expired entries are swept at most this often, so the sweep costs nothing per call.
const SWEEP_INTERVAL_MS = 1000;

/**
 * In-process implementation, timed by the injected clock. Bounded twice: at most `maxEntries`
 * entries (oldest evicted first), and none kept more than about a second past its TTL (expired
 * entries are swept at most once a second), so keys that are never asked for again, such as the
 * pages of one-off searches, do not stay in memory until enough newer ones push them out.
 *
 * @example
 * ```ts
 * const cache = new MemoryCache(systemClock);
 * await cache.set("config:app_demo", body, { ttlMs: 30_000, tags: ["app:app_1"] });
 * await cache.invalidateTag("app:app_1");
 * ```
 */
export class MemoryCache implements SharedCache {
  readonly #entries = new Map<string, Entry>();
  readonly #byTag = new Map<string, Set<string>>();
  #nextSweepAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 10_000,
  ) {}

  /** Entries held in memory, expired ones not yet swept included (for tests and metrics). */
  get size(): number {
    return this.#entries.size;
  }

  get<T>(key: string): Promise<T | undefined> {
    const entry = this.#entries.get(key);
    if (entry === undefined) return Promise.resolve(undefined);
    if (entry.expiresAt <= this.clock.now().getTime()) {
      this.#delete(key);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(entry.value as T);
  }

  set(key: string, value: unknown, options: { ttlMs: number; tags: readonly string[] }): Promise<void> {
    const now = this.clock.now().getTime();
    if (now >= this.#nextSweepAt) this.#sweep(now);
    this.#delete(key);
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: now + options.ttlMs, tags: options.tags });
    for (const tag of options.tags) {
      let keys = this.#byTag.get(tag);
      if (keys === undefined) this.#byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    return Promise.resolve();
  }

  invalidateTag(tag: string): Promise<void> {
    for (const key of this.#byTag.get(tag) ?? []) this.#delete(key);
    this.#byTag.delete(tag);
    return Promise.resolve();
  }

  #sweep(now: number): void {
    this.#nextSweepAt = now + SWEEP_INTERVAL_MS;
    // TTLs differ between entries, so every entry is looked at (a few thousand at most, once a second).
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#delete(key);
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.#byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#byTag.delete(tag);
    }
  }
}
