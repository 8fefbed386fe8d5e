import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRedisUrl } from "@tidings/testing/test-redis";
import { RedisRateLimiter, redisRateLimitKey } from "./redis-rate-limiter.js";

const SEARCH = { limit: 30, windowSeconds: 60 };
const REDIS_URL = await testRedisUrl("RedisRateLimiter");

describe.skipIf(REDIS_URL === null)("RedisRateLimiter", () => {
  // Two connections, as two server instances would have.
  let a: Redis;
  let b: Redis;
  // A bucket prefix of our own, so parallel runs on one Redis never share counters.
  const run = `test-${randomBytes(4).toString("hex")}`;
  let n = 0;
  const bucket = () => `${run}-${++n}`;

  beforeAll(() => {
    a = new Redis(REDIS_URL!);
    b = new Redis(REDIS_URL!);
  });
  afterAll(async () => {
    const keys = await a.keys(`tidings:rl:${run}-*`);
    if (keys.length > 0) await a.del(...keys);
    await Promise.all([a.quit(), b.quit()]);
  });

  it("allows 30 searches in a burst and refuses the 31st with Retry-After, in a namespaced key", async () => {
    const limiter = new RedisRateLimiter(a);
    const search = bucket();
    for (let i = 0; i < 30; i++) {
      expect(await limiter.hit(search, "203.0.113.7", SEARCH)).toEqual({ allowed: true, remaining: 29 - i, retryAfterSeconds: 0 });
    }
    const refused = await limiter.hit(search, "203.0.113.7", SEARCH);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);

    const key = redisRateLimitKey(search, "203.0.113.7");
    expect(key).toBe(`tidings:rl:${search}:203.0.113.7`);
    expect(await a.get(key)).toBe("31");
    const ttl = await a.pttl(key);
    expect(ttl).toBeGreaterThan(58_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("makes two instances share one budget, even under concurrent hits", async () => {
    const one = new RedisRateLimiter(a);
    const two = new RedisRateLimiter(b);
    const search = bucket();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? one : two).hit(search, "203.0.113.7", SEARCH)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(30);
    expect((await one.hit(search, "203.0.113.7", SEARCH)).allowed).toBe(false);
    expect((await two.hit(search, "203.0.113.7", SEARCH)).allowed).toBe(false);
  });

  it("keeps separate budgets per key and per bucket", async () => {
    const limiter = new RedisRateLimiter(a);
    const [search, list] = [bucket(), bucket()];
    const tight = { limit: 1, windowSeconds: 60 };
    expect((await limiter.hit(search, "203.0.113.7", tight)).allowed).toBe(true);
    expect((await limiter.hit(search, "203.0.113.7", tight)).allowed).toBe(false);
    expect((await limiter.hit(search, "2001:db8::1", tight)).allowed).toBe(true);
    expect((await limiter.hit(list, "203.0.113.7", tight)).allowed).toBe(true);
  });

  it("lets the client in again once Redis drops the closed window", async () => {
    const limiter = new RedisRateLimiter(a);
    const search = bucket();
    const tight = { limit: 1, windowSeconds: 60 };
    await limiter.hit(search, "203.0.113.7", tight);
    expect((await limiter.hit(search, "203.0.113.7", tight)).allowed).toBe(false);
    // What expiry does, without waiting a minute.
    await a.del(redisRateLimitKey(search, "203.0.113.7"));
    expect(await limiter.hit(search, "203.0.113.7", tight)).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
  });

  it("cuts a window back to a shortened rule instead of waiting out the old one", async () => {
    const limiter = new RedisRateLimiter(a);
    const search = bucket();
    await limiter.hit(search, "203.0.113.7", { limit: 1, windowSeconds: 3600 });
    const refused = await limiter.hit(search, "203.0.113.7", { limit: 1, windowSeconds: 60 });
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it("keeps working after Redis forgets its scripts (as after a restart)", async () => {
    const limiter = new RedisRateLimiter(b);
    const search = bucket();
    await limiter.hit(search, "203.0.113.7", SEARCH);
    await b.script("FLUSH");
    expect(await limiter.hit(search, "203.0.113.7", SEARCH)).toMatchObject({ allowed: true, remaining: 28 });
  });
});
