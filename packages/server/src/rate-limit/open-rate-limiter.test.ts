import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { createTestApp } from "@tidings/testing/test-app";
import { testRedisUrl } from "@tidings/testing/test-redis";
import { MemoryRateLimiter } from "./memory-rate-limiter.js";
import { openRateLimiter } from "./open-rate-limiter.js";
import { RedisRateLimiter } from "./redis-rate-limiter.js";

const REDIS_URL = await testRedisUrl("openRateLimiter (Redis)");

describe("openRateLimiter", () => {
  it("keeps limits in memory when REDIS_URL is unset", async () => {
    const { limiter, close } = await openRateLimiter(null, new FakeClock());
    expect(limiter).toBeInstanceOf(MemoryRateLimiter);
    await close();
  });

  it("stops the start with a message naming REDIS_URL, without the password, when Redis is unreachable", async () => {
    const opening = openRateLimiter("redis://:s3cret@127.0.0.1:1", new FakeClock());
    await expect(opening).rejects.toThrow(/^REDIS_URL: cannot connect to Redis at 127\.0\.0\.1:1: .*ECONNREFUSED/);
    await expect(opening).rejects.not.toThrow(/s3cret/);
  });
});

describe.skipIf(REDIS_URL === null)("openRateLimiter with Redis", () => {
  it("connects, and close() releases the connection", async () => {
    const { limiter, close } = await openRateLimiter(REDIS_URL, new FakeClock());
    expect(limiter).toBeInstanceOf(RedisRateLimiter);
    const bucket = `test-${randomBytes(4).toString("hex")}`;
    expect((await limiter.hit(bucket, "k", { limit: 1, windowSeconds: 1 })).allowed).toBe(true);
    await close();
    await expect(limiter.hit(bucket, "k", { limit: 1, windowSeconds: 1 })).rejects.toThrow();
  });

  it("makes two app instances on one Redis share each client's config budget", async () => {
    const [one, two] = await Promise.all([createTestApp("sqlite", { redisUrl: REDIS_URL }), createTestApp("sqlite", { redisUrl: REDIS_URL })]);
    // An address of this run only: Redis outlives the test and other runs may share it.
    const client = `2001:db8::${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}`;
    try {
      const fetchConfig = (t: typeof one) => t.app.inject({ url: "/api/v1/public/config/app_demo", remoteAddress: client });
      for (let i = 0; i < 30; i++) {
        expect((await fetchConfig(one)).statusCode).toBe(200);
        expect((await fetchConfig(two)).statusCode).toBe(200);
      }
      expect((await fetchConfig(one)).statusCode).toBe(429);
      expect((await fetchConfig(two)).statusCode).toBe(429);
    } finally {
      await Promise.all([one.close(), two.close()]);
      const redis = new Redis(REDIS_URL!);
      await redis.del(`tidings:rl:config:${client}`);
      await redis.quit();
    }
  });
});
