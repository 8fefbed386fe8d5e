/**
 * How many requests a bucket accepts per key (client IP) and over how long.
 *
 * @example
 * ```ts
 * const search: RateLimitRule = { limit: 30, windowSeconds: 60 };
 * ```
 */
export interface RateLimitRule {
  /** Requests accepted per window. */
  limit: number;
  /** Length of a window in whole seconds. */
  windowSeconds: number;
}

/** The verdict on one request. */
export interface RateLimitResult {
  allowed: boolean;
  /** Requests still accepted in the current window after this one. */
  remaining: number;
  /** Whole seconds until the caller may try again: ≥ 1 when refused, 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Counts requests per (bucket, key) and says whether one more is allowed.
 *
 * Algorithm (every implementation): a fixed window that opens at the first request of a key
 * and lasts `windowSeconds`; the `limit` first requests in it are allowed and every later one
 * is refused until it closes, so a burst gets exactly `limit` through and its (limit+1)-th is
 * refused with the seconds left in the window. Refused requests do not extend the window.
 * Chosen over a sliding log because it needs one counter per key whatever the limit (an
 * operator may raise a limit to millions) and one atomic INCR in Redis; the price is that a
 * client that spends a window to its last second can spend the next one at once, so it can
 * get up to 2 × limit through in a span of `windowSeconds` straddling the boundary.
 *
 * @example
 * ```ts
 * const { allowed, retryAfterSeconds } = await limiter.hit("search", request.ip, { limit: 30, windowSeconds: 60 });
 * ```
 */
export interface RateLimiter {
  hit(bucket: string, key: string, rule: RateLimitRule): Promise<RateLimitResult>;
}
