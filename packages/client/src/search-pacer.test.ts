import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLimitedException } from "./errors.js";
import { SearchPacer, type SearchKey } from "./search-pacer.js";

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

function harness(options: ConstructorParameters<typeof SearchPacer>[1] = {}) {
  const fetched: { key: SearchKey; at: number }[] = [];
  let fail: unknown;
  const pacer = new SearchPacer(async (key) => {
    fetched.push({ key, at: Date.now() });
    if (fail !== undefined) {
      const error = fail;
      fail = undefined;
      throw error;
    }
  }, options);
  return { pacer, fetched, failNext: (error: unknown) => (fail = error) };
}

describe("SearchPacer", () => {
  it("debounces typing by 250 ms and fetches the last text once", async () => {
    const { pacer, fetched } = harness();
    pacer.update("d");
    await vi.advanceTimersByTimeAsync(100);
    pacer.update("da");
    await vi.advanceTimersByTimeAsync(100);
    pacer.update("dark ");
    await vi.advanceTimersByTimeAsync(249);
    expect(fetched).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetched.map((f) => f.key.query)).toEqual(["dark"]);
  });

  it("spaces query-bearing fetches 2.5 s apart, keeping only the newest wanted search", async () => {
    const { pacer, fetched } = harness();
    pacer.update("dark");
    await vi.advanceTimersByTimeAsync(250);
    pacer.update("dark mode");
    await vi.advanceTimersByTimeAsync(250);
    pacer.update("dark mode ios");
    await vi.advanceTimersByTimeAsync(250);
    expect(fetched).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2500);
    expect(fetched.map((f) => [f.key.query, f.at])).toEqual([
      ["dark", 250],
      ["dark mode ios", 2750],
    ]);
  });

  it("never refetches the same trimmed query and version, and leaves plain listings unpaced", async () => {
    const { pacer, fetched } = harness();
    pacer.update("sync", "v1");
    await vi.advanceTimersByTimeAsync(250);
    pacer.update("  sync ", "v1");
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetched).toHaveLength(1);
    pacer.update("sync", "v2");
    await vi.advanceTimersByTimeAsync(250);
    expect(fetched).toHaveLength(2);
    pacer.update("");
    await vi.advanceTimersByTimeAsync(250);
    pacer.update("", "v1");
    await vi.advanceTimersByTimeAsync(250);
    expect(fetched.slice(2).map((f) => [f.key.query, f.key.versionId, f.at])).toEqual([
      ["", undefined, 5750],
      ["", "v1", 6000],
    ]);
  });

  it("after a 429 suppresses query searches for 60 s, keeps plain listings, then runs the newest search", async () => {
    const { pacer, fetched, failNext } = harness();
    const changes = vi.fn();
    pacer.subscribe(changes);
    failNext(new RateLimitedException("slow down", { status: 429, retryAfterMs: null }));
    pacer.update("a");
    await vi.advanceTimersByTimeAsync(250);
    expect(pacer.rateLimited).toBe(true);
    expect(changes).toHaveBeenCalledTimes(1);
    pacer.update("ab");
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetched).toHaveLength(1);
    pacer.update("");
    await vi.advanceTimersByTimeAsync(250);
    expect(fetched.map((f) => f.key.query)).toEqual(["a", ""]);
    pacer.update("abc");
    await vi.advanceTimersByTimeAsync(29_749);
    expect(fetched).toHaveLength(2);
    expect(pacer.rateLimited).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(pacer.rateLimited).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
    expect(fetched.at(-1)).toEqual({ key: { query: "abc", versionId: undefined }, at: 60_250 });
  });

  it("honours the server's Retry-After and the tuning options", async () => {
    const { pacer, fetched, failNext } = harness({ minSpacingMs: 1000, cooldownMs: 5000 });
    failNext(new RateLimitedException("slow down", { status: 429, retryAfterMs: 10_000 }));
    pacer.update("x");
    await vi.advanceTimersByTimeAsync(250);
    pacer.update("y");
    await vi.advanceTimersByTimeAsync(9_999);
    expect(fetched).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetched.map((f) => f.key.query)).toEqual(["x", "y"]);
    pacer.update("z");
    await vi.advanceTimersByTimeAsync(250);
    await vi.advanceTimersByTimeAsync(750);
    expect(fetched.map((f) => f.at)).toEqual([250, 10_250, 11_250]);
  });

  it("retries the same input after an ordinary failure", async () => {
    const { pacer, fetched, failNext } = harness({ minSpacingMs: 0 });
    failNext(new Error("offline"));
    pacer.update("q");
    await vi.advanceTimersByTimeAsync(250);
    pacer.update("q");
    await vi.advanceTimersByTimeAsync(250);
    expect(fetched).toHaveLength(2);
  });
});
