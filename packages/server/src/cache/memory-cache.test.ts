import { describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { approximateBytes } from "./entry-size.js";
import { MemoryCache } from "./memory-cache.js";

describe("MemoryCache", () => {
  it("expires entries after their TTL on the injected clock", async () => {
    const clock = new FakeClock();
    const cache = new MemoryCache(clock);
    await cache.set("k", 1, { ttlMs: 1000, tags: [] });
    clock.advance(999);
    expect(await cache.get("k")).toBe(1);
    clock.advance(1);
    expect(await cache.get("k")).toBeUndefined();
  });

  it("drops every entry of a tag at once and keeps the others", async () => {
    const cache = new MemoryCache(new FakeClock());
    await cache.set("a", 1, { ttlMs: 1000, tags: ["app:1"] });
    await cache.set("b", 2, { ttlMs: 1000, tags: ["app:1", "x"] });
    await cache.set("c", 3, { ttlMs: 1000, tags: ["app:2"] });
    await cache.invalidateTag("app:1");
    expect(await cache.get("a")).toBeUndefined();
    expect(await cache.get("b")).toBeUndefined();
    expect(await cache.get("c")).toBe(3);
  });

  it("evicts the oldest entry when full", async () => {
    const cache = new MemoryCache(new FakeClock(), { maxBytes: 1024 * 1024, maxEntries: 2 });
    await cache.set("a", 1, { ttlMs: 1000, tags: [] });
    await cache.set("b", 2, { ttlMs: 1000, tags: [] });
    await cache.set("c", 3, { ttlMs: 1000, tags: [] });
    expect(await cache.get("a")).toBeUndefined();
    expect(await cache.get("c")).toBe(3);
  });

  it("drops entries past their TTL that are never asked for again, once a second at most", async () => {
    const clock = new FakeClock();
    const cache = new MemoryCache(clock);
    for (let i = 0; i < 100; i++) await cache.set(`search:${i}`, "page", { ttlMs: 10_000, tags: ["app:1"] });
    await cache.set("count", 1, { ttlMs: 30_000, tags: [] });
    expect(cache.size).toBe(101);
    clock.advance(10_000);
    await cache.set("fresh", 2, { ttlMs: 10_000, tags: [] });
    expect(cache.size).toBe(2);
    expect(await cache.get("count")).toBe(1);
    // Within the second after a sweep, an entry that expires waits for the next one.
    clock.advance(9_999);
    await cache.set("a", 3, { ttlMs: 10_000, tags: [] });
    clock.advance(1);
    await cache.set("b", 4, { ttlMs: 10_000, tags: [] });
    expect(cache.size).toBe(4);
    clock.advance(999);
    await cache.set("c", 5, { ttlMs: 10_000, tags: [] });
    expect(cache.size).toBe(4);
    expect(await cache.get("count")).toBe(1);
    expect(await cache.get("fresh")).toBeUndefined();
  });

  // A page of 50 requests as the listing caches it: the items, and their JSON ready to send.
  const page = (n: number) => {
    const requests = Array.from({ length: 50 }, (_, i) => ({ id: `fr_${n}_${i}`, title: `Request ${i} of page ${n}`, description: "Please add this. ".repeat(20), voteCount: i, tags: [{ slug: "ui", name: "UI" }] }));
    return { page: { requests, total: 5000, hasMore: true, nextCursor: "c" }, body: { json: JSON.stringify({ requests }), etag: `"${n}"` } };
  };

  it("holds about its byte limit of values, the least recently read going first", async () => {
    const one = JSON.stringify(page(0)).length;
    const cache = new MemoryCache(new FakeClock(), { maxBytes: 40 * one });
    for (let n = 0; n < 200; n++) {
      await cache.set(`fr-list:${n}`, page(n), { ttlMs: 60_000, tags: ["app:1"] });
      // The first page is read all along: it stays.
      expect(await cache.get(`fr-list:0`), `after page ${n}`).toBeDefined();
    }
    const { entries, bytes } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(40 * one);
    // Each page is counted at least at its text's size (and not wildly more): 10 to 40 of them fit.
    expect(entries).toBeGreaterThanOrEqual(10);
    expect(entries).toBeLessThanOrEqual(40);
    expect(await cache.get("fr-list:1")).toBeUndefined();
    expect(await cache.get("fr-list:199")).toEqual(page(199));
    // Evicted entries left their tags: dropping the tag empties the cache.
    await cache.invalidateTag("app:1");
    expect(cache.stats()).toEqual({ entries: 0, bytes: 0 });
  });

  it("does not keep a value larger than its whole limit, nor its tags", async () => {
    const cache = new MemoryCache(new FakeClock(), { maxBytes: 10_000 });
    await cache.set("small", "x", { ttlMs: 1000, tags: ["app:1"] });
    await cache.set("huge", "x".repeat(20_000), { ttlMs: 1000, tags: ["app:1"] });
    expect(await cache.get("huge")).toBeUndefined();
    expect(await cache.get("small")).toBe("x");
    // Replacing an entry with one too large drops the old value too.
    await cache.set("small", "y".repeat(20_000), { ttlMs: 1000, tags: [] });
    expect(await cache.get("small")).toBeUndefined();
    expect(cache.stats().entries).toBe(0);
  });

  it("moves an entry's tags when it is set again", async () => {
    const cache = new MemoryCache(new FakeClock());
    await cache.set("k", 1, { ttlMs: 1000, tags: ["app:1"] });
    await cache.set("k", 2, { ttlMs: 1000, tags: ["app:2"] });
    await cache.invalidateTag("app:1");
    expect(await cache.get("k")).toBe(2);
    await cache.invalidateTag("app:2");
    expect(await cache.get("k")).toBeUndefined();
  });

  it("counts an entry at the size its caller gives, when it gives one", async () => {
    const cache = new MemoryCache(new FakeClock(), { maxBytes: 10_000 });
    await cache.set("key1", "x", { ttlMs: 1000, tags: [] });
    // The same entry but for its size: key1 walked, key2 told.
    const walked = cache.stats().bytes;
    await cache.set("key2", "x", { ttlMs: 1000, tags: [], bytes: 3000 });
    expect(cache.stats().bytes - walked).toBe(walked - approximateBytes("x") + 3000);
    // A value said to be larger than the whole limit is not kept.
    await cache.set("page", { page: [] }, { ttlMs: 1000, tags: ["app:1"], bytes: 20_000 });
    expect(await cache.get("page")).toBeUndefined();
    expect(await cache.get("key2")).toBe("x");
  });

  it("reads and writes several entries at once as it does one by one", async () => {
    const clock = new FakeClock();
    const cache = new MemoryCache(clock);
    await cache.setMany([
      { key: "a", value: 1, options: { ttlMs: 1000, tags: ["app:1", "request:a"] } },
      { key: "b", value: 2, options: { ttlMs: 2000, tags: ["app:1", "request:b"] } },
    ]);
    expect(await cache.getMany(["a", "missing", "b"])).toEqual([1, undefined, 2]);
    await cache.invalidateTag("request:a");
    expect(await cache.getMany(["a", "b"])).toEqual([undefined, 2]);
    clock.advance(2000);
    expect(await cache.getMany(["b"])).toEqual([undefined]);
    await cache.setMany([{ key: "c", value: 3, options: { ttlMs: 1000, tags: ["app:1"] } }]);
    await cache.invalidateTag("app:1");
    expect(await cache.get("c")).toBeUndefined();
  });
});
