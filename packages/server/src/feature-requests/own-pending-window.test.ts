import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { OWN_PENDING_SHOWN } from "./own-pending.js";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;
interface Item {
  id: string;
  approved: boolean;
  isOwnRequest: boolean;
}
interface Page {
  requests: Item[];
  total: number;
  nextCursor: string | null;
}

// A caller with more requests waiting for review than their window sees their newest
// OWN_PENDING_SHOWN in every listing and search, each once, with totals that count exactly what
// the pages list; the older ones stay readable by id.
describe.each(testDialects())("a caller's window of their own pending requests, on %s", (dialect) => {
  let t: TestApp;
  let ws: Workspace;
  const approved: string[] = [];
  /** The viewer's pending requests, oldest first. */
  const mine: string[] = [];

  const propose = async (title: string, token: string) => {
    t.clock.advance(1000);
    const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": token }, payload: { appKey: ws.appKey, title } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().featureRequestId as string;
  };
  const approve = async (id: string) => expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id}/approve`)).status).toBe(200);

  /** Every page of a listing as `token` sees it, following the cursors. */
  async function everyPage(query: string, token: string | null): Promise<{ ids: string[]; totals: number[] }> {
    const ids: string[] = [];
    const totals = new Set<number>();
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const res = await t.app.inject({
        url: `/api/v1/feature-requests?appKey=${ws.appKey}&limit=20&${query}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
        headers: token === null ? {} : { "x-user-token": token },
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Page;
      ids.push(...page.requests.map((r) => r.id));
      totals.add(page.total);
      if (page.nextCursor === null) return { ids, totals: [...totals] };
      cursor = page.nextCursor;
    }
    throw new Error("the listing never ended");
  }

  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `window-${dialect}`);
    await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { moderationPolicy: "all" });
    for (let i = 0; i < 3; i++) approved.push(await propose(`Public idea ${i}`, "someone"));
    for (const id of approved) await approve(id);
    for (let i = 0; i < OWN_PENDING_SHOWN + 10; i++) mine.push(await propose(`Idea of mine ${i}`, "viewer"));
  });
  afterAll(() => t.close());

  it.each(["newest", "top", "trending"])("lists the 50 newest of 60 pending requests on %s pages, each once, and counts exactly those", async (sort) => {
    expect(OWN_PENDING_SHOWN).toBe(50);
    const shown = mine.slice(-OWN_PENDING_SHOWN);
    const seen = await everyPage(`sort=${sort}`, "viewer");
    expect(new Set(seen.ids)).toEqual(new Set([...approved, ...shown]));
    expect(seen.ids).toHaveLength(approved.length + OWN_PENDING_SHOWN);
    expect(seen.totals).toEqual([approved.length + OWN_PENDING_SHOWN]);
    if (sort === "newest") expect(seen.ids).toEqual([...shown].reverse().concat([...approved].reverse()));
    // Anyone else sees the public requests alone.
    expect(await everyPage(`sort=${sort}`, "someone")).toEqual({ ids: expect.arrayContaining(approved), totals: [approved.length] });
  });

  it("searches the same window: the newest 50 matches of theirs first, then the public ones", async () => {
    const seen = await everyPage("q=idea", "viewer");
    expect(seen.ids.slice(0, OWN_PENDING_SHOWN).sort()).toEqual(mine.slice(-OWN_PENDING_SHOWN).sort());
    expect(new Set(seen.ids.slice(OWN_PENDING_SHOWN))).toEqual(new Set(approved));
    expect(seen.totals).toEqual([OWN_PENDING_SHOWN + approved.length]);
    // A search none of theirs matches is the public search itself.
    for (const q of ["public", "public+idea"]) {
      const publicOnly = await everyPage(`q=${q}`, "viewer");
      expect(new Set(publicOnly.ids)).toEqual(new Set(approved));
      expect(publicOnly).toEqual(await everyPage(`q=${q}`, null));
    }
  });

  it("still answers an older pending request by id, and slides the window when one of the shown is approved", async () => {
    const oldest = await t.app.inject({ url: `/api/v1/feature-requests/${mine[0]}`, headers: { "x-user-token": "viewer" } });
    expect(oldest.json()).toMatchObject({ id: mine[0], approved: false, isOwnRequest: true });
    // Approving the newest leaves 59 pending: the window now reaches one further back.
    const newest = mine.at(-1)!;
    await approve(newest);
    const pending = mine.slice(0, -1);
    const seen = await everyPage("sort=newest", "viewer");
    expect(seen.ids).toEqual([newest, ...pending.slice(-OWN_PENDING_SHOWN).reverse(), ...[...approved].reverse()]);
    expect(seen.totals).toEqual([approved.length + 1 + OWN_PENDING_SHOWN]);
  });
});
