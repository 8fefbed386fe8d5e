import { Redis } from "ioredis";

/**
 * The Redis the Redis suites run against (`TEST_REDIS_URL`, default the local one), or null
 * when it is unreachable, after saying so. With CI=true an unreachable Redis is an error.
 *
 * @example
 * ```ts
 * const redisUrl = await testRedisUrl("RedisRateLimiter");
 * describe.skipIf(redisUrl === null)("RedisRateLimiter", () => { … });
 * ```
 */
export async function testRedisUrl(suite: string, env: Record<string, string | undefined> = process.env): Promise<string | null> {
  const url = env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // A refused connection is the answer here; without a listener ioredis would print it too.
  probe.on("error", () => {});
  let up: boolean;
  try {
    await probe.connect();
    up = (await probe.ping()) === "PONG";
  } catch {
    up = false;
  } finally {
    probe.disconnect();
  }
  if (up) return url;
  if (env.CI === "true") throw new Error(`CI=true but Redis at ${url} is unreachable: the ${suite} suite is required in CI`);
  process.stderr.write(`Skipping the ${suite} suite: no Redis at ${url} (start one, set TEST_REDIS_URL, or set CI=true to require it)\n`);
  return null;
}
