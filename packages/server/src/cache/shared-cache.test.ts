import { describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { MemoryCache } from "./shared-cache.js";

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
    const cache = new MemoryCache(new FakeClock(), 2);
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
});
