import type { Redis } from "ioredis";
import type { RateLimiter, RateLimitResult, RateLimitRule } from "./rate-limiter.js";

// One round trip, atomic: instances sharing the Redis share each budget. The window's clock is
// Redis's (the key's TTL), so instances with skewed clocks still agree. A counter without an
// expiry is fresh; one that outlives the window predates a shorter rule and is cut back to it.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
local window = tonumber(ARGV[1])
if ttl < 0 or ttl > window then
  redis.call('PEXPIRE', KEYS[1], window)
  ttl = window
end
return {count, ttl}
`;

interface WithHitCommand {
  tidingsRateLimitHit(key: string, windowMs: number): Promise<[number, number]>;
}

/** The Redis key of a (bucket, key) window. */
export function redisRateLimitKey(bucket: string, key: string): string {
  return `tidings:rl:${bucket}:${key}`;
}

/**
 * {@link RateLimiter} shared by every instance on one Redis (fixed window opened by a key's
 * first request, see the interface): a Lua INCR + PEXPIRE on `tidings:rl:<bucket>:<key>`.
 * The caller owns the connection and closes it.
 *
 * @example
 * ```ts
 * const limiter = new RedisRateLimiter(new Redis("redis://127.0.0.1:6379"));
 * await limiter.hit("vote", request.ip, { limit: 20, windowSeconds: 60 });
 * ```
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis & WithHitCommand;

  constructor(redis: Redis) {
    // defineCommand sends EVALSHA and falls back to EVAL once after a Redis restart (NOSCRIPT).
    redis.defineCommand("tidingsRateLimitHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.#redis = redis as Redis & WithHitCommand;
  }

  async hit(bucket: string, key: string, rule: RateLimitRule): Promise<RateLimitResult> {
    const [count, ttlMs] = await this.#redis.tidingsRateLimitHit(redisRateLimitKey(bucket, key), rule.windowSeconds * 1000);
    if (count <= rule.limit) return { allowed: true, remaining: rule.limit - count, retryAfterSeconds: 0 };
    return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
  }
}
