import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { startTcpProxy, type TcpProxy } from "@tidings/testing/tcp-proxy";
import { testRedisUrl } from "@tidings/testing/test-redis";
import { openRedisCache, type CacheLog, type OpenedRedisCache } from "./redis-cache.js";

const REDIS_URL = await testRedisUrl("RedisCache");

/** Log lines a cache wrote, as `level: message`. */
function captureLog(): CacheLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (_d, message) => lines.push(`warn: ${message}`), info: (_d, message) => lines.push(`info: ${message}`) };
}

describe.skipIf(REDIS_URL === null)("RedisCache", () => {
  // Keys of our own, so parallel runs on one Redis never share generations.
  const prefix = `test-cache-${randomBytes(4).toString("hex")}:`;
  const opened: OpenedRedisCache[] = [];
  const proxies: TcpProxy[] = [];
  const clock = new FakeClock();

  /** One instance's cache: on the Redis itself, or through `proxy` so a test can cut it. */
  async function instance(proxy?: TcpProxy) {
    const log = captureLog();
    const url = proxy === undefined ? REDIS_URL! : `redis://${proxy.address}`;
    const one = await openRedisCache(url, clock, log, prefix);
    opened.push(one);
    return { cache: one.cache, log };
  }
  async function proxy() {
    const p = await startTcpProxy(new URL(REDIS_URL!).host);
    proxies.push(p);
    return p;
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((o) => o.close()));
    await Promise.all(proxies.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    const redis = new Redis(REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it("serves its entries until their TTL on the injected clock", async () => {
    const { cache } = await instance();
    await cache.set("k", { n: 1 }, { ttlMs: 1000, tags: ["app:1"] });
    clock.advance(999);
    expect(await cache.get("k")).toEqual({ n: 1 });
    clock.advance(1);
    expect(await cache.get("k")).toBeUndefined();
  });

  it("drops a tag's entries on every instance once one instance's invalidation is acknowledged", async () => {
    const [a, b] = [await instance(), await instance()];
    for (const { cache } of [a, b]) {
      await cache.set("config", "old config", { ttlMs: 30_000, tags: ["app:1"] });
      await cache.set("list", "old list", { ttlMs: 30_000, tags: ["app:1", "content:1"] });
      await cache.set("other", "other app", { ttlMs: 30_000, tags: ["app:2"] });
    }
    await a.cache.invalidateTag("content:1");
    expect(await b.cache.get("list")).toBeUndefined();
    expect(await b.cache.get("config")).toBe("old config");
    await a.cache.invalidateTag("app:1");
    for (const { cache } of [a, b]) {
      expect(await cache.get("config")).toBeUndefined();
      expect(await cache.get("list")).toBeUndefined();
      expect(await cache.get("other")).toBe("other app");
    }
    // Entries stored after the invalidation are served again.
    await b.cache.set("config", "new config", { ttlMs: 30_000, tags: ["app:1"] });
    expect(await b.cache.get("config")).toBe("new config");
  });

  it("checks several entries in one round trip, each against its own tags", async () => {
    const [a, b] = [await instance(), await instance()];
    await b.cache.setMany(
      ["r1", "r2", "r3"].map((id) => ({ key: `commenters:${id}`, value: `names of ${id}`, options: { ttlMs: 30_000, tags: ["app:1", `request:${id}`] } })),
    );
    const mget = vi.spyOn(Redis.prototype, "mget");
    try {
      expect(await b.cache.getMany(["commenters:r1", "commenters:none", "commenters:r2", "commenters:r3"])).toEqual([
        "names of r1",
        undefined,
        "names of r2",
        "names of r3",
      ]);
      expect(mget).toHaveBeenCalledTimes(1);
    } finally {
      mget.mockRestore();
    }
    // A comment on r2 seen by another instance drops r2's entry alone.
    await a.cache.invalidateTag("request:r2");
    expect(await b.cache.getMany(["commenters:r1", "commenters:r2", "commenters:r3"])).toEqual(["names of r1", undefined, "names of r3"]);
    await a.cache.invalidateTag("app:1");
    expect(await b.cache.getMany(["commenters:r1", "commenters:r3"])).toEqual([undefined, undefined]);
  });

  it("degrades to no cache when Redis goes away, logs once, and resumes when it is back", async () => {
    const p = await proxy();
    const a = await instance(p);
    const b = await instance();
    await a.cache.set("config", "before", { ttlMs: 30_000, tags: ["app:1"] });
    await b.cache.set("config", "before", { ttlMs: 30_000, tags: ["app:1"] });

    await p.cut();
    await vi.waitFor(() => expect(a.cache.degraded).toBe(true));
    expect(await a.cache.get("config")).toBeUndefined();
    // A console write on A during the outage: A cannot tell Redis, and nothing throws.
    await a.cache.invalidateTag("app:1");
    await a.cache.set("config", "during", { ttlMs: 30_000, tags: ["app:1"] });
    expect(await a.cache.get("config")).toBeUndefined();
    expect(a.log.lines).toEqual(["warn: shared cache: Redis unreachable, serving without cache until it is back"]);

    await p.restore();
    clock.advance(1000);
    await vi.waitFor(
      async () => {
        clock.advance(1000);
        await a.cache.get("config");
        expect(a.cache.degraded).toBe(false);
      },
      { timeout: 5000, interval: 50 },
    );
    expect(a.log.lines).toEqual([
      "warn: shared cache: Redis unreachable, serving without cache until it is back",
      "info: shared cache: Redis is back, caching resumed",
    ]);
    // B never lost Redis, but A's invalidation during the outage was lost: A's return drops B's entry.
    expect(await b.cache.get("config")).toBeUndefined();
    await a.cache.set("config", "after", { ttlMs: 30_000, tags: ["app:1"] });
    expect(await a.cache.get("config")).toBe("after");
  });

  it("answers without the cache within the command timeout when Redis hangs", async () => {
    const p = await proxy();
    const a = await instance(p);
    await a.cache.set("config", "before", { ttlMs: 30_000, tags: ["app:1"] });
    p.hang();
    const started = performance.now();
    expect(await a.cache.get("config")).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1500);
    expect(a.cache.degraded).toBe(true);
    expect(a.log.lines).toHaveLength(1);
  });

  it("starts degraded, with one log line, when Redis is unreachable at start", async () => {
    const p = await proxy();
    await p.cut();
    const a = await instance(p);
    expect(a.cache.degraded).toBe(true);
    await a.cache.set("config", "x", { ttlMs: 30_000, tags: ["app:1"] });
    expect(await a.cache.get("config")).toBeUndefined();
    expect(a.log.lines).toEqual(["warn: shared cache: Redis unreachable, serving without cache until it is back"]);
  });
});
