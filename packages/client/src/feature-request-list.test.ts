import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FeedbackClient } from "./client.js";
import { UnexpectedStatusException } from "./errors.js";
import { FeatureRequestListController, type FeatureRequestListOptions } from "./feature-request-list.js";
import type { FetchLike } from "./request.js";
import type { FeatureRequestItem } from "./types.js";

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

const TITLES = ["Dark mode", "Dark widgets", "Offline sync", "Sync to iCloud", "Export CSV", "Import CSV", "Dark icons"];

function item(id: string, title: string): FeatureRequestItem {
  return { id, appId: "app_1", title, description: "", status: "open", approved: true, voteCount: 0, hasVoted: false, isOwnRequest: false, createdAt: "", updatedAt: "" };
}

/**
 * A fake listing endpoint over seven requests: filters by `q`, pages by offset, logs each call
 * with the fake time and user, answers 429 to query searches while `limited` is set, 500 while
 * `broken`, claims more pages while `claimsMore`, and takes 5 s to answer `slowQuery`.
 */
function fakeServer() {
  const items = TITLES.map((title, i) => item(`fr_${i}`, title));
  const calls: { q: string; versionId: string | null; sort: string | null; board: string | null; tags: string[]; offset: number; limit: number; user: string | null; at: number }[] = [];
  const server = {
    items,
    calls,
    limited: undefined as { retryAfter?: string } | undefined,
    slowQuery: undefined as string | undefined,
    broken: false,
    claimsMore: false,
    /** Boards and tags by slug: the dark requests are on `dark`, the CSV ones tagged `csv`. */
    boards: new Set(["dark"]),
    tags: new Set(["csv"]),
  };
  const fetch: FetchLike = async (input, init) => {
    const params = new URL(input).searchParams;
    const q = params.get("q") ?? "";
    const offset = Number(params.get("offset") ?? 0);
    const limit = Number(params.get("limit"));
    const user = new Headers(init.headers).get("X-User-Token") ?? params.get("userToken");
    const board = params.get("board");
    const tags = params.getAll("tag");
    calls.push({ q, versionId: params.get("versionId"), sort: params.get("sort"), board, tags, offset, limit, user, at: Date.now() });
    if (board !== null && !server.boards.has(board)) return Response.json({ error: `Unknown board: ${board}`, code: "unknown_board" }, { status: 400 });
    if (tags.some((t) => !server.tags.has(t))) return Response.json({ error: "Unknown tag", code: "unknown_tag" }, { status: 400 });
    if (q !== "" && server.limited !== undefined) {
      const headers: Record<string, string> = server.limited.retryAfter === undefined ? {} : { "Retry-After": server.limited.retryAfter };
      return Response.json({ error: "Too many searches", code: "rate_limited" }, { status: 429, headers });
    }
    if (server.broken) return Response.json({ error: "Internal error", code: "internal_error" }, { status: 500 });
    if (q === server.slowQuery) await new Promise((resolve) => setTimeout(resolve, 5000));
    const matches = server.items.filter(
      (i) =>
        i.title.toLowerCase().includes(q.toLowerCase()) &&
        (board === null || i.title.toLowerCase().includes(board)) &&
        tags.every((t) => i.title.toLowerCase().includes(t)),
    );
    const requests = matches.slice(offset, offset + limit);
    return Response.json({ requests, total: matches.length, hasMore: server.claimsMore || offset + limit < matches.length, nextCursor: null });
  };
  return { server, fetch };
}

function harness(options: FeatureRequestListOptions = {}) {
  const { server, fetch } = fakeServer();
  const client = new FeedbackClient({ baseUrl: "https://api.example.com", appKey: "app_demo", fetch, userToken: "tok", warn: () => undefined });
  const list = new FeatureRequestListController(client, options);
  const queries = () => server.calls.map((c) => [c.q, c.at]);
  return { server, list, queries };
}

describe("FeatureRequestListController", () => {
  it("loads the plain listing at once, debounces typing by 250 ms and spaces searches 2.5 s apart", async () => {
    const { list, queries } = harness();
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(list.getState()).toMatchObject({ status: "ready", total: 7 });
    list.setQuery("d");
    await vi.advanceTimersByTimeAsync(100);
    list.setQuery("dark");
    await vi.advanceTimersByTimeAsync(250);
    expect(list.getState().items.map((i) => i.title)).toEqual(["Dark mode", "Dark widgets", "Dark icons"]);
    list.setQuery("sync");
    await vi.advanceTimersByTimeAsync(250);
    expect(queries()).toEqual([["", 0], ["dark", 350]]);
    await vi.advanceTimersByTimeAsync(2250);
    expect(queries().at(-1)).toEqual(["sync", 2850]);
    expect(list.getState()).toMatchObject({ query: "sync", total: 2 });
  });

  it("never refetches the same trimmed query and version, and leaves plain listings unpaced", async () => {
    const { list, queries, server } = harness();
    list.start();
    list.setQuery("csv");
    await vi.advanceTimersByTimeAsync(250);
    list.setQuery("  csv ");
    await vi.advanceTimersByTimeAsync(5000);
    list.setVersionId("v1");
    await vi.advanceTimersByTimeAsync(250);
    list.setQuery("");
    await vi.advanceTimersByTimeAsync(250);
    list.setVersionId(undefined);
    await vi.advanceTimersByTimeAsync(250);
    expect(queries()).toEqual([["", 0], ["csv", 250], ["csv", 5500], ["", 5750], ["", 6000]]);
    expect(server.calls.map((c) => c.versionId)).toEqual([null, null, "v1", "v1", null]);
  });

  it("after a 429 keeps the loaded results with a rate-limit notice and suppresses searches for 60 s", async () => {
    const { list, queries, server } = harness();
    list.start();
    list.setQuery("dark");
    await vi.advanceTimersByTimeAsync(250);
    server.limited = {};
    list.setQuery("sync");
    await vi.advanceTimersByTimeAsync(2500);
    expect(list.getState()).toMatchObject({ status: "ready", rateLimited: true, error: undefined, query: "sync" });
    expect(list.getState().items.map((i) => i.title)).toEqual(["Dark mode", "Dark widgets", "Dark icons"]);
    list.setQuery("export");
    await vi.advanceTimersByTimeAsync(59_999);
    expect(queries()).toEqual([["", 0], ["dark", 250], ["sync", 2750]]);
    server.limited = undefined;
    await vi.advanceTimersByTimeAsync(1);
    expect(list.getState()).toMatchObject({ rateLimited: false, total: 1 });
    expect(queries().at(-1)).toEqual(["export", 62_750]);
  });

  it("lets plain listings through during the cooldown", async () => {
    const { list, queries, server } = harness();
    server.limited = {};
    list.start();
    list.setQuery("dark");
    await vi.advanceTimersByTimeAsync(250);
    expect(list.getState().rateLimited).toBe(true);
    list.setQuery("");
    await vi.advanceTimersByTimeAsync(250);
    expect(queries()).toEqual([["", 0], ["dark", 250], ["", 500]]);
    expect(list.getState()).toMatchObject({ rateLimited: true, total: 7 });
  });

  it("honours the server's Retry-After and searchRateLimiterOptions", async () => {
    const { list, queries, server } = harness({ searchRateLimiterOptions: { minSpacingMs: 1000, cooldownMs: 30_000 } });
    list.start();
    server.limited = { retryAfter: "5" };
    list.setQuery("dark");
    await vi.advanceTimersByTimeAsync(250);
    server.limited = undefined;
    list.setQuery("sync");
    await vi.advanceTimersByTimeAsync(4999);
    expect(list.getState().rateLimited).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    list.setQuery("csv");
    await vi.advanceTimersByTimeAsync(1000);
    expect(queries()).toEqual([["", 0], ["dark", 250], ["sync", 5250], ["csv", 6250]]);
  });

  it("pages with loadMore, never showing an id twice", async () => {
    const { list, server } = harness({ pageSize: 3 });
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    // A new request on top shifts the offsets: the next page repeats the last item shown.
    server.items.unshift(item("fr_new", "Brand new"));
    await list.loadMore();
    await list.loadMore();
    const state = list.getState();
    expect(state.items.map((i) => i.id)).toEqual(["fr_0", "fr_1", "fr_2", "fr_3", "fr_4", "fr_5", "fr_6"]);
    expect(state.hasMore).toBe(false);
    await list.loadMore();
    expect(server.calls.map((c) => c.offset)).toEqual([0, 3, 6]);
  });

  it("starts the cooldown on a 429 while loading more, keeping the items, and pages on after it", async () => {
    const { list, server } = harness({ pageSize: 2 });
    list.start();
    list.setQuery("dark");
    await vi.advanceTimersByTimeAsync(250);
    server.limited = {};
    await list.loadMore();
    expect(list.getState()).toMatchObject({ rateLimited: true, hasMore: true, error: undefined, loadingMore: false });
    await list.loadMore();
    expect(server.calls).toHaveLength(3);
    server.limited = undefined;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(list.getState().rateLimited).toBe(false);
    await list.loadMore();
    expect(list.getState().items.map((i) => i.title)).toEqual(["Dark mode", "Dark widgets", "Dark icons"]);
  });

  it("fetches one next page at a time: the end of the list reached twice in one tick loads it once", async () => {
    const { list, server } = harness({ pageSize: 2 });
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all([list.loadMore(), list.loadMore()]);
    expect(server.calls.map((c) => c.offset)).toEqual([0, 2]);
    expect(list.getState().items.map((i) => i.id)).toEqual(["fr_0", "fr_1", "fr_2", "fr_3"]);
  });

  it("ends the paging when a page comes back empty, even the first, whatever the server claims", async () => {
    const { list, server } = harness({ pageSize: 5 });
    server.claimsMore = true;
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    await list.loadMore();
    await list.loadMore();
    expect(list.getState()).toMatchObject({ hasMore: false, total: 7 });
    expect(server.calls.map((c) => c.offset)).toEqual([0, 5, 7]);
    list.setQuery("nothing like this");
    await vi.advanceTimersByTimeAsync(250);
    expect(list.getState()).toMatchObject({ items: [], hasMore: false });
    await list.loadMore();
    expect(server.calls).toHaveLength(4);
  });

  it("fetches nothing before start or after stop, and start resumes with the inputs given meanwhile", async () => {
    const { list, server } = harness();
    list.setQuery("dark");
    list.setSort("newest");
    list.refresh();
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.calls).toHaveLength(0);
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls.map((c) => [c.q, c.sort])).toEqual([["dark", "newest"]]);
    list.setQuery("csv");
    list.stop();
    await vi.advanceTimersByTimeAsync(5000);
    await list.loadMore();
    expect(server.calls).toHaveLength(1);
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls.at(-1)).toMatchObject({ q: "csv" });
    expect(list.getState().items.map((i) => i.title)).toEqual(["Export CSV", "Import CSV"]);
  });

  it("drops an answer that arrives after stop", async () => {
    const { list, server } = harness();
    server.slowQuery = "";
    list.start();
    list.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.calls).toHaveLength(1);
    expect(list.getState().items).toEqual([]);
  });

  it("lists again as another user at a login, dropping the answer on its way, and keeps a running cooldown", async () => {
    const { list, server } = harness({ userToken: "ann", pageSize: 2 });
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    list.setSettings({ userToken: "ann", pageSize: 2 });
    expect(server.calls).toHaveLength(1);
    server.slowQuery = "";
    list.refresh();
    list.setSettings({ userToken: "bob", pageSize: 2 });
    server.slowQuery = undefined;
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls.map((c) => c.user)).toEqual(["ann", "ann", "bob"]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(list.getState()).toMatchObject({ status: "ready", total: 7 });
    await list.loadMore();
    expect(server.calls.at(-1)).toMatchObject({ user: "bob", offset: 2 });
    // A bigger page lists again from the top; a search cooldown outlives the switch.
    list.setSettings({ userToken: "bob", pageSize: 5 });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls.at(-1)).toMatchObject({ offset: 0, limit: 5 });
    expect(list.getState().items).toHaveLength(5);
    server.limited = {};
    list.setQuery("dark");
    await vi.advanceTimersByTimeAsync(250);
    server.limited = undefined;
    // Logged out: the client's own token again.
    list.setSettings({ userToken: undefined, pageSize: 5 });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(list.getState().rateLimited).toBe(true);
    expect(server.calls.at(-1)).toMatchObject({ q: "dark", user: "bob" });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.calls.at(-1)).toMatchObject({ q: "dark", user: "tok" });
    expect(list.getState().items.map((i) => i.title)).toEqual(["Dark mode", "Dark widgets", "Dark icons"]);
  });

  it("patches a shown item with updateItem and leaves the others as they are", async () => {
    const { list } = harness({ pageSize: 2 });
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    const [first, second] = list.getState().items;
    list.updateItem("fr_0", { hasVoted: true, voteCount: 1 });
    list.updateItem("fr_missing", { voteCount: 9 });
    expect(list.getState().items).toEqual([{ ...first, hasVoted: true, voteCount: 1 }, second]);
    expect(list.getState().items[1]).toBe(second);
  });

  it("drops a slower answer to an older search", async () => {
    const { list, server } = harness({ searchRateLimiterOptions: { minSpacingMs: 0 } });
    server.slowQuery = "dark";
    list.start();
    list.setQuery("dark");
    await vi.advanceTimersByTimeAsync(250);
    list.setQuery("csv");
    await vi.advanceTimersByTimeAsync(250);
    await vi.advanceTimersByTimeAsync(5000);
    expect(list.getState().items.map((i) => i.title)).toEqual(["Export CSV", "Import CSV"]);
  });

  it("refetches with a new sort, and exposes other failures as error", async () => {
    const { list, server } = harness({ sort: "top" });
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    list.setSort("newest");
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls.map((c) => c.sort)).toEqual(["top", "newest"]);
    server.broken = true;
    list.refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(list.getState()).toMatchObject({ status: "error", error: expect.any(UnexpectedStatusException), total: 7 });
  });

  it("notifies subscribers and goes quiet after dispose", async () => {
    const { list, server } = harness();
    const states: string[] = [];
    list.subscribe((state) => states.push(state.status));
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(states).toEqual(["loading", "ready"]);
    list.dispose();
    list.setQuery("dark");
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.calls).toHaveLength(1);
  });

  it("lists one board and the requests carrying every tag chosen, each filter change fetched once", async () => {
    const { list, server } = harness();
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    list.setBoard("dark");
    await vi.advanceTimersByTimeAsync(250);
    expect(list.getState()).toMatchObject({ board: "dark", total: 3 });
    list.setBoard(undefined);
    list.setTags(["csv", "csv"]);
    await vi.advanceTimersByTimeAsync(250);
    expect(list.getState().items.map((i) => i.title)).toEqual(["Export CSV", "Import CSV"]);
    list.setTags(["csv"]);
    await vi.advanceTimersByTimeAsync(250);
    list.setTags(["a", "b", "c", "d", "e", "f"]);
    expect(list.getState().tags).toEqual(["a", "b", "c", "d", "e"]);
    expect(server.calls.map((c) => [c.board, c.tags])).toEqual([
      [null, []],
      ["dark", []],
      [null, ["csv"]],
    ]);
  });

  it("drops a board or tag the server no longer knows and lists without it", async () => {
    const { list, server } = harness({ board: "dark", tags: ["csv"] });
    server.boards.delete("dark");
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(list.getState()).toMatchObject({ board: undefined, tags: ["csv"] });
    await vi.advanceTimersByTimeAsync(250);
    expect(list.getState()).toMatchObject({ status: "ready", error: undefined, total: 2 });
    server.tags.delete("csv");
    list.refresh();
    await vi.advanceTimersByTimeAsync(250);
    expect(list.getState()).toMatchObject({ status: "ready", tags: [], total: 7 });
    expect(server.calls.map((c) => [c.board, c.tags])).toEqual([
      ["dark", ["csv"]],
      [null, ["csv"]],
      [null, ["csv"]],
      [null, []],
    ]);
  });

  it("pages a filtered listing with the same filters", async () => {
    const { list, server } = harness({ pageSize: 2, board: "dark" });
    list.start();
    await vi.advanceTimersByTimeAsync(0);
    await list.loadMore();
    expect(list.getState().items.map((i) => i.title)).toEqual(["Dark mode", "Dark widgets", "Dark icons"]);
    expect(server.calls.map((c) => [c.board, c.offset])).toEqual([
      ["dark", 0],
      ["dark", 2],
    ]);
  });
});
