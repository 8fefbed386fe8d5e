import { FeatureRequestListController, FeedbackClient, type FeatureRequestListState } from "@tidings/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startRealServer, type RealServer } from "./real-server.js";

let server: RealServer;

// One search per minute, so the second search meets the server's 429.
beforeAll(async () => {
  server = await startRealServer({ TIDINGS_RATE_LIMIT_SEARCH: "1/60" });
});
afterAll(async () => {
  await server?.close();
});

/** Waits (real time) until the list's state matches. */
const until = (list: FeatureRequestListController, expected: Partial<FeatureRequestListState>) =>
  vi.waitFor(() => expect(list.getState()).toMatchObject(expected), { timeout: 5000, interval: 20 });

describe("FeatureRequestListController against the real server", () => {
  it("pages the demo listing without duplicates, searches, and keeps the results through a 429", async () => {
    const client = new FeedbackClient({ baseUrl: server.baseUrl, appKey: "app_demo", warn: () => undefined });
    const list = new FeatureRequestListController(client, { pageSize: 2, searchRateLimiterOptions: { minSpacingMs: 0 } });
    try {
      list.start();
      await until(list, { status: "ready" });
      while (list.getState().hasMore) await list.loadMore();
      const all = list.getState();
      expect(all.items.length).toBe(all.total);
      expect(new Set(all.items.map((i) => i.id)).size).toBe(all.items.length);

      const word = all.items[0]!.title.split(/\s+/).find((w) => w.length > 3) ?? all.items[0]!.title;
      list.setQuery(word);
      await until(list, { status: "ready", query: word });
      await vi.waitFor(() => expect(list.getState().total).toBeLessThan(all.total), { timeout: 5000, interval: 20 });
      const found = list.getState().items;
      expect(found.length).toBeGreaterThan(0);

      list.setQuery(`${word} zzz`);
      await until(list, { rateLimited: true });
      expect(list.getState()).toMatchObject({ status: "ready", error: undefined, items: found });
    } finally {
      list.dispose();
    }
  });
});
