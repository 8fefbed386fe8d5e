import { describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { MemoryRateLimiter } from "./memory-rate-limiter.js";

const SEARCH = { limit: 30, windowSeconds: 60 };

async function hitTimes(limiter: MemoryRateLimiter, times: number, bucket = "search", key = "203.0.113.7") {
  const results = [];
  for (let i = 0; i < times; i++) results.push(await limiter.hit(bucket, key, SEARCH));
  return results;
}

describe("MemoryRateLimiter", () => {
  it("allows 30 searches in a burst and refuses the 31st with the seconds left in the window", async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter(clock);
    const burst = await hitTimes(limiter, 30);
    expect(burst.every((r) => r.allowed)).toBe(true);
    expect(burst.map((r) => r.remaining)).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i));
    expect(burst[0]).toEqual({ allowed: true, remaining: 29, retryAfterSeconds: 0 });

    clock.advance(15_500);
    expect(await limiter.hit("search", "203.0.113.7", SEARCH)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 45 });
  });

  it("lets the client in again when the window closes, and refusals do not extend it", async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter(clock);
    await hitTimes(limiter, 30);
    clock.advance(59_001);
    expect(await limiter.hit("search", "203.0.113.7", SEARCH)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    clock.advance(999);
    expect(await limiter.hit("search", "203.0.113.7", SEARCH)).toEqual({ allowed: true, remaining: 29, retryAfterSeconds: 0 });
    // The new window opened at that request: 29 more, then refused for a full minute.
    expect((await hitTimes(limiter, 29)).every((r) => r.allowed)).toBe(true);
    expect(await limiter.hit("search", "203.0.113.7", SEARCH)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
  });

  it("keeps separate budgets per key and per bucket", async () => {
    const limiter = new MemoryRateLimiter(new FakeClock());
    await hitTimes(limiter, 31);
    expect((await limiter.hit("search", "203.0.113.7", SEARCH)).allowed).toBe(false);
    expect(await limiter.hit("search", "198.51.100.1", SEARCH)).toMatchObject({ allowed: true, remaining: 29 });
    expect(await limiter.hit("list", "203.0.113.7", SEARCH)).toMatchObject({ allowed: true, remaining: 29 });
  });

  it("drops closed windows so idle clients cost no memory", async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter(clock);
    for (let i = 0; i < 100; i++) await limiter.hit("search", `10.0.0.${i}`, SEARCH);
    await limiter.hit("vote", "10.0.1.1", { limit: 20, windowSeconds: 60 });
    expect(limiter.size).toBe(101);
    clock.advance(30_000);
    await limiter.hit("search", "10.0.2.1", SEARCH);
    expect(limiter.size).toBe(102);
    clock.advance(30_000);
    await limiter.hit("search", "10.0.2.2", SEARCH);
    // The first 101 windows closed; the two opened later are still running.
    expect(limiter.size).toBe(2);
  });

  it("forgets the oldest client when a bucket is full", async () => {
    const limiter = new MemoryRateLimiter(new FakeClock(), { maxKeysPerBucket: 2 });
    const tight = { limit: 1, windowSeconds: 60 };
    await limiter.hit("search", "a", tight);
    await limiter.hit("search", "b", tight);
    await limiter.hit("search", "c", tight);
    expect(limiter.size).toBe(2);
    expect((await limiter.hit("search", "b", tight)).allowed).toBe(false);
    expect((await limiter.hit("search", "a", tight)).allowed).toBe(true);
  });
});
