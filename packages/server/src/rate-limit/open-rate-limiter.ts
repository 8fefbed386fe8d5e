import type { Clock } from "../clock.js";
import { MemoryRateLimiter } from "./memory-rate-limiter.js";
import type { RateLimiter } from "./rate-limiter.js";
import { RedisRateLimiter } from "./redis-rate-limiter.js";

/** A limiter and how to release what it holds. */
export interface OpenedRateLimiter {
  limiter: RateLimiter;
  close(): Promise<void>;
  /** With Redis: resolves when it answers a PING (`/readyz` calls it); absent for the in-memory limiter. */
  ping?(): Promise<void>;
}

/**
 * The limiter the configuration asks for: in memory (one instance) when `redisUrl` is null,
 * else Redis (shared by every instance), connected before this resolves so a wrong or
 * unreachable REDIS_URL stops the start instead of the first requests.
 *
 * @example
 * ```ts
 * const { limiter, close } = await openRateLimiter(config.redisUrl, systemClock);
 * ```
 */
export async function openRateLimiter(redisUrl: string | null, clock: Clock): Promise<OpenedRateLimiter> {
  if (redisUrl === null) return { limiter: new MemoryRateLimiter(clock), close: () => Promise.resolve() };
  // Loaded here, so that an instance without REDIS_URL never loads the client.
  const { Redis } = await import("ioredis");
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    // During an outage a hit fails at once (enforceRateLimit then lets the request through)
    // instead of queueing until Redis is back; a hung Redis costs a request at most a second.
    enableOfflineQueue: false,
    commandTimeout: 1000,
  });
  let lastError: Error | undefined;
  // Without a listener ioredis prints every reconnect failure to stderr; failures surface
  // (and are logged) on the hits they fail instead.
  redis.on("error", (error: Error) => {
    lastError = error;
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    const where = new URL(redisUrl).host;
    throw new Error(`REDIS_URL: cannot connect to Redis at ${where}: ${(lastError ?? (error as Error)).message}`, { cause: error });
  }
  return {
    limiter: new RedisRateLimiter(redis),
    ping: async () => {
      await redis.ping();
    },
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
