import type { Clock } from "../clock.js";
import type { RateLimiter, RateLimitResult, RateLimitRule } from "./rate-limiter.js";

/** Options of {@link MemoryRateLimiter}. */
export interface MemoryRateLimiterOptions {
  /**
   * Live windows kept per bucket; past it the oldest is forgotten (that client starts afresh),
   * so a flood of distinct addresses cannot exhaust memory. @default 100_000
   */
  maxKeysPerBucket?: number;
}

interface Window {
  count: number;
  /** Epoch ms at which the window closes. */
  endsAt: number;
}

// Expired windows are dropped at most this often, so the sweep costs nothing per hit.
const SWEEP_INTERVAL_MS = 1000;

/**
 * In-process {@link RateLimiter} for a single instance (fixed window opened by a key's first
 * request, see the interface), timed by the injected clock. Memory is bounded: closed windows
 * are swept about once a second and each bucket holds at most `maxKeysPerBucket` keys.
 *
 * @example
 * ```ts
 * const limiter = new MemoryRateLimiter(systemClock);
 * await limiter.hit("search", "203.0.113.7", { limit: 30, windowSeconds: 60 });
 * ```
 */
export class MemoryRateLimiter implements RateLimiter {
  // One map per bucket: no key concatenation per hit, and each map stays in window-opening
  // order (a reopened window is re-inserted), so a sweep can stop at the first open one.
  readonly #buckets = new Map<string, Map<string, Window>>();
  readonly #maxKeysPerBucket: number;
  #nextSweepAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    options: MemoryRateLimiterOptions = {},
  ) {
    this.#maxKeysPerBucket = options.maxKeysPerBucket ?? 100_000;
  }

  /** Keys with a window held in memory, over every bucket (for tests and metrics). */
  get size(): number {
    let size = 0;
    for (const windows of this.#buckets.values()) size += windows.size;
    return size;
  }

  hit(bucket: string, key: string, rule: RateLimitRule): Promise<RateLimitResult> {
    const now = this.clock.now().getTime();
    if (now >= this.#nextSweepAt) this.#sweep(now);
    let windows = this.#buckets.get(bucket);
    if (windows === undefined) this.#buckets.set(bucket, (windows = new Map()));
    let window = windows.get(key);
    if (window === undefined || window.endsAt <= now) {
      if (window !== undefined) windows.delete(key);
      else if (windows.size >= this.#maxKeysPerBucket) windows.delete(windows.keys().next().value as string);
      window = { count: 0, endsAt: now + rule.windowSeconds * 1000 };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= rule.limit) {
      return Promise.resolve({ allowed: true, remaining: rule.limit - window.count, retryAfterSeconds: 0 });
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    return Promise.resolve({ allowed: false, remaining: 0, retryAfterSeconds });
  }

  #sweep(now: number): void {
    this.#nextSweepAt = now + SWEEP_INTERVAL_MS;
    for (const [bucket, windows] of this.#buckets) {
      for (const [key, window] of windows) {
        if (window.endsAt > now) break;
        windows.delete(key);
      }
      if (windows.size === 0) this.#buckets.delete(bucket);
    }
  }
}
