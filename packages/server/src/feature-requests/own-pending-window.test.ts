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

  it("shows a caller the trending pages everyone sees while recent votes fill them, then their own in top order", async () => {
    const board = await createWorkspaceWithApp(t.app, t.admin.authorization, `trending-${dialect}`);
    await board.console.put(`/workspaces/${board.wsId}/apps/${board.appId}/settings`, { moderationPolicy: "all" });
    const pageOf = async (token: string | null, cursor: string | null) => {
      const res = await t.app.inject({
        url: `/api/v1/feature-requests?appKey=${board.appKey}&sort=trending&limit=2${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
        headers: token === null ? {} : { "x-user-token": token },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };
    const ideas: string[] = [];
    for (let i = 0; i < 6; i++) {
      t.clock.advance(1000);
      const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "someone" }, payload: { appKey: board.appKey, title: `Voted idea ${i}` } });
      ideas.push(res.json().featureRequestId as string);
      expect((await board.console.post(`/workspaces/${board.wsId}/feature-requests/${ideas[i]}/approve`)).status).toBe(200);
    }
    // Recent votes on four of them: 3, 2, 1 and 1, so they lead the ranking in that order.
    const votes: Array<[number, number]> = [[4, 3], [1, 2], [5, 1], [2, 1]];
    for (const [idea, count] of votes) {
      for (let v = 0; v < count; v++) {
        const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${ideas[idea]}/vote`, headers: { "x-user-token": `voter-${v}` }, payload: {} });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    t.clock.advance(1000);
    const own = (await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "proposer" }, payload: { appKey: board.appKey, title: "My idea" } })).json().featureRequestId as string;
    // Past the ranking's 5 s, so the pages read the votes above.
    t.clock.advance(10_000);

    const everyone = await pageOf(null, null);
    const first = await pageOf("proposer", null);
    expect(first.requests.map((r) => r.id)).toEqual([ideas[4], ideas[1]]);
    expect(first.requests.map((r) => r.id)).toEqual(everyone.requests.map((r) => r.id));
    // Their pending request is counted, though not on the page.
    expect(everyone.total).toBe(6);
    expect(first.total).toBe(7);
    const ids = first.requests.map((r) => r.id);
    for (let cursor = first.nextCursor; cursor !== null; ) {
      const page = await pageOf("proposer", cursor);
      expect(page.total).toBe(7);
      ids.push(...page.requests.map((r) => r.id));
      cursor = page.nextCursor;
    }
    // The voted ones, then the others in top order (no votes: newest first), theirs among them.
    expect(ids).toEqual([ideas[4], ideas[1], ideas[5], ideas[2], own, ideas[3], ideas[0]]);
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
  it("narrows a caller's own pending requests by board and tags on every sort, as the public requests are", async () => {
    const org = await createWorkspaceWithApp(t.app, t.admin.authorization, `organised-${dialect}`);
    await org.console.put(`/workspaces/${org.wsId}/apps/${org.appId}/settings`, { moderationPolicy: "all" });
    const second = (await org.console.post(`/workspaces/${org.wsId}/apps/${org.appId}/boards`, { name: "Second" })).body as { id: string; slug: string };
    const tagA = (await org.console.post(`/workspaces/${org.wsId}/apps/${org.appId}/tags`, { name: "Alpha" })).body as { id: string; slug: string };
    const tagB = (await org.console.post(`/workspaces/${org.wsId}/apps/${org.appId}/tags`, { name: "Beta" })).body as { id: string; slug: string };
    /** Each request with where it sits and whose it is: public ones from "someone", pending ones the viewer's. */
    const made: Array<{ id: string; second: boolean; tags: string[]; pending: boolean }> = [];
    const shapes: Array<[boolean, string[], boolean]> = [
      [false, [tagA.id], false], [true, [tagA.id], false], [true, [], false], [false, [tagA.id, tagB.id], false],
      [false, [tagA.id], true], [true, [tagA.id, tagB.id], true], [true, [], true], [false, [tagB.id], true], [true, [tagA.id], true],
    ];
    for (const [i, [onSecond, tagIds, pending]] of shapes.entries()) {
      t.clock.advance(1000);
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/feature-requests",
        headers: { "x-user-token": pending ? "organised-viewer" : "someone" },
        payload: { appKey: org.appKey, title: `Organised idea ${i}`, ...(onSecond ? { board: second.slug } : {}) },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().featureRequestId as string;
      if (!pending) expect((await org.console.post(`/workspaces/${org.wsId}/feature-requests/${id}/approve`)).status).toBe(200);
      for (const tagId of tagIds) {
        expect((await org.console.post(`/workspaces/${org.wsId}/apps/${org.appId}/feature-requests/tags`, { featureRequestIds: [id], add: [tagId] })).status).toBe(200);
      }
      made.push({ id, second: onSecond, tags: tagIds, pending });
    }
    // A vote on two public ones, so `top` differs from `newest`.
    for (const id of [made[0]!.id, made[2]!.id]) {
      expect((await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": "someone" }, payload: {} })).statusCode).toBe(200);
    }
    const filters: Array<[string, (r: (typeof made)[number]) => boolean]> = [
      [`board=${second.slug}`, (r) => r.second],
      [`tag=${tagA.slug}`, (r) => r.tags.includes(tagA.id)],
      [`tag=${tagA.slug}&tag=${tagB.slug}`, (r) => r.tags.includes(tagA.id) && r.tags.includes(tagB.id)],
      [`board=${second.slug}&tag=${tagA.slug}`, (r) => r.second && r.tags.includes(tagA.id)],
    ];
    const pageOf = async (query: string, token: string, cursor: string | null) => {
      const res = await t.app.inject({
        url: `/api/v1/feature-requests?appKey=${org.appKey}&limit=2&${query}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
        headers: { "x-user-token": token },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };
    for (const sort of ["newest", "top", "trending"]) {
      for (const [filter, keeps] of filters) {
        const query = `sort=${sort}&${filter}`;
        // Twice: the shared page is computed on the first read and cached for the second.
        for (const round of [1, 2]) {
          const ids: string[] = [];
          const totals = new Set<number>();
          for (let cursor: string | null = null, pages = 0; ; pages++) {
            expect(pages).toBeLessThan(20);
            const page: Page = await pageOf(query, "organised-viewer", cursor);
            ids.push(...page.requests.map((r) => r.id));
            totals.add(page.total);
            for (const r of page.requests) expect(r.isOwnRequest, `${query}: ${r.id}`).toBe(made.find((m) => m.id === r.id)!.pending);
            cursor = page.nextCursor;
            if (cursor === null) break;
          }
          const wanted = made.filter(keeps).map((r) => r.id);
          expect(ids.length, `${query}, read ${round}`).toBe(new Set(ids).size);
          expect(new Set(ids), `${query}, read ${round}`).toEqual(new Set(wanted));
          expect([...totals], `${query}, read ${round}`).toEqual([wanted.length]);
          if (sort === "newest") expect(ids, `${query}, read ${round}`).toEqual([...wanted].reverse());
        }
      }
    }
  });

  it("shows a caller's own pending requests on their pages with their public tags, team comments and votes, as the request itself reads", async () => {
    const token = "tagged-viewer";
    const tagged = await propose("Tagged while waiting", token);
    const discussed = await propose("Discussed while waiting", token);
    const tag = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/tags`, { name: "Roadmap idea" });
    const hidden = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/tags`, { name: "Triage", visibility: "team" });
    expect((await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/feature-requests/tags`, { featureRequestIds: [tagged], add: [tag.body.id, hidden.body.id] })).status).toBe(200);
    expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${discussed}/comments`, { body: "Looking at it" })).status).toBe(201);
    expect((await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${discussed}/vote`, headers: { "x-user-token": token }, payload: {} })).statusCode).toBe(404);
    for (const sort of ["newest", "top", "trending"]) {
      const res = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}&limit=100&sort=${sort}`, headers: { "x-user-token": token } });
      expect(res.statusCode, res.body).toBe(200);
      const byId = new Map((res.json().requests as Array<Item & Record<string, unknown>>).map((r) => [r.id, r]));
      for (const id of [tagged, discussed]) {
        const alone = (await t.app.inject({ url: `/api/v1/feature-requests/${id}`, headers: { "x-user-token": token } })).json();
        expect(byId.get(id), `${sort}: ${id}`).toEqual(alone);
      }
      expect(byId.get(tagged)).toMatchObject({ isOwnRequest: true, approved: false, tags: [{ name: "Roadmap idea", slug: "roadmap-idea", color: null }] });
      expect(byId.get(discussed)).toMatchObject({ isOwnRequest: true, commentCount: 1, tags: [] });
    }
  });
});
