import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import type { Workspace } from "@tidings/testing/console-client";
import { publicBoard } from "@tidings/testing/public-board-kit";
import { userHash } from "../users/identity.js";

describe.each(testDialects())("the public feature request listing on %s", (dialect) => {
  let t: TestApp;
  const { freshApp, propose, list, vote } = publicBoard(() => t, `ws-${dialect}`);

  beforeAll(async () => {
    // The rate limits have their own suite below; here one address sends hundreds of requests.
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
  });
  afterAll(() => t.close());

  describe("listing", () => {
    let ws: Workspace;
    const ids: string[] = [];
    beforeAll(async () => {
      ws = await freshApp();
      for (let i = 0; i < 7; i++) {
        t.clock.advance(1000);
        ids.push((await propose(ws.appKey, `Request number ${i}`)).json().featureRequestId);
      }
    });

    it("pages newest first with a keyset cursor, total independent of the cursor", async () => {
      const first = await list(`appKey=${ws.appKey}&limit=3`);
      expect(first.body.requests.map((r: { id: string }) => r.id)).toEqual([ids[6], ids[5], ids[4]]);
      expect(first.body).toMatchObject({ total: 7, hasMore: true });
      const second = await list(`appKey=${ws.appKey}&limit=3&cursor=${first.body.nextCursor}&offset=99`);
      expect(second.body.requests.map((r: { id: string }) => r.id)).toEqual([ids[3], ids[2], ids[1]]);
      expect(second.body.total).toBe(7);
      const third = await list(`appKey=${ws.appKey}&limit=3&cursor=${second.body.nextCursor}`);
      expect(third.body.requests.map((r: { id: string }) => r.id)).toEqual([ids[0]]);
      expect(third.body).toMatchObject({ hasMore: false, nextCursor: null });
    });

    it("pages by offset and clamps it at 10000", async () => {
      const page = await list(`appKey=${ws.appKey}&limit=2&offset=2`);
      expect(page.body.requests.map((r: { id: string }) => r.id)).toEqual([ids[4], ids[3]]);
      const far = await list(`appKey=${ws.appKey}&offset=5000000`);
      expect(far.status).toBe(200);
      expect(far.body).toMatchObject({ requests: [], total: 7, hasMore: false });
    });

    it("refuses malformed cursors and cursors of another sort with 400", async () => {
      const first = await list(`appKey=${ws.appKey}&limit=2`);
      for (const cursor of ["garbage", "eyJ4IjoxfQ", first.body.nextCursor]) {
        const res = await list(`appKey=${ws.appKey}&sort=top&cursor=${cursor}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: "Invalid cursor", code: "invalid_cursor" });
      }
    });

    it("refuses forged cursors with a negative offset or vote count with 400 on every engine", async () => {
      for (const sort of ["trending", "top"]) {
        const first = await list(`appKey=${ws.appKey}&limit=2&sort=${sort}`);
        const decoded = JSON.parse(Buffer.from(first.body.nextCursor, "base64url").toString("utf8")) as Record<string, unknown>;
        const forged = Buffer.from(JSON.stringify({ ...decoded, ...("o" in decoded ? { o: -5 } : { v: -5 }) })).toString("base64url");
        const res = await list(`appKey=${ws.appKey}&limit=2&sort=${sort}&cursor=${forged}`);
        expect({ sort, status: res.status, body: res.body }).toEqual({ sort, status: 400, body: { error: "Invalid cursor", code: "invalid_cursor" } });
      }
    });

    it("sorts by votes (top) and by recent votes (trending)", async () => {
      for (const token of ["v1", "v2", "v3"]) await vote(ids[1]!, token);
      t.clock.advance(8 * 86_400_000);
      for (const token of ["v1", "v2"]) await vote(ids[2]!, token);
      const top = await list(`appKey=${ws.appKey}&sort=top&limit=2`);
      expect(top.body.requests.map((r: { id: string }) => r.id)).toEqual([ids[1], ids[2]]);
      const next = await list(`appKey=${ws.appKey}&sort=top&limit=2&cursor=${top.body.nextCursor}`);
      expect(next.body.requests.map((r: { id: string }) => r.id)).toEqual([ids[6], ids[5]]);
      const trending = await list(`appKey=${ws.appKey}&sort=trending&limit=2`);
      expect(trending.body.requests.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
      const trendingNext = await list(`appKey=${ws.appKey}&sort=trending&limit=2&cursor=${trending.body.nextCursor}`);
      expect(trendingNext.body.requests.map((r: { id: string }) => r.id)).toEqual([ids[6], ids[5]]);
    });

    it("pages trending alike by cursor and by offset, across recently voted and other requests", async () => {
      const fresh = await freshApp();
      const r: string[] = [];
      for (let i = 0; i < 8; i++) {
        t.clock.advance(1000);
        r.push((await propose(fresh.appKey, `Trend ${i}`)).json().featureRequestId);
      }
      // Votes older than the trending window count for `top` only.
      for (const token of ["o1", "o2", "o3", "o4"]) await vote(r[0]!, token);
      for (const token of ["o1", "o2"]) await vote(r[3]!, token);
      t.clock.advance(8 * 86_400_000);
      for (const token of ["n1", "n2"]) await vote(r[5]!, token);
      await vote(r[1]!, "n1");
      await vote(r[3]!, "n3");
      // Recent votes first (r5: 2; r3 and r1: 1 each, r3 with more votes), then the others by
      // votes (r0: 4), then newest first.
      const expected = [r[5], r[3], r[1], r[0], r[7], r[6], r[4], r[2]];
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(`appKey=${fresh.appKey}&sort=trending&limit=3${cursor === null ? "" : `&cursor=${cursor}`}`);
        expect(page.body.total).toBe(8);
        seen.push(...page.body.requests.map((x: { id: string }) => x.id));
        cursor = page.body.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual(expected);
      for (const offset of [1, 2, 3, 4, 7]) {
        const page = await list(`appKey=${fresh.appKey}&sort=trending&limit=2&offset=${offset}`);
        expect(page.body.requests.map((x: { id: string }) => x.id), `offset ${offset}`).toEqual(expected.slice(offset, offset + 2));
      }
    });

    it("keeps the trending order for 5 s through votes and proposals waiting for review; counts stay fresh", async () => {
      const fresh = await freshApp({ moderationPolicy: "anonymous" });
      const hash = (token: string) => ({ "x-user-hash": userHash(fresh.signingSecret, token) });
      const r: string[] = [];
      for (let i = 0; i < 3; i++) {
        t.clock.advance(1000);
        r.push((await propose(fresh.appKey, `Hot ${i}`, "", `maker-${i}`, hash(`maker-${i}`))).json().featureRequestId);
      }
      const order = async () =>
        (await list(`appKey=${fresh.appKey}&sort=trending&limit=3`)).body.requests.map((x: { id: string; voteCount: number }) => [x.id, x.voteCount]);
      await vote(r[0]!, "k1");
      expect(await order()).toEqual([
        [r[0], 1],
        [r[2], 0],
        [r[1], 0],
      ]);
      // r1 now has more recent votes, and someone's proposal waits for review: within the window
      // the ranking stands (r0 recently voted, then the others by votes), the counts are fresh.
      await vote(r[1]!, "k2");
      await vote(r[1]!, "k3");
      expect((await propose(fresh.appKey, "Waiting", "", "anon")).json().pending).toBe(true);
      t.clock.advance(4999);
      expect(await order()).toEqual([
        [r[0], 1],
        [r[1], 2],
        [r[2], 0],
      ]);
      // Past it, the next page (a vote drops the cached anonymous pages) ranks by the votes again.
      t.clock.advance(1);
      await vote(r[1]!, "k7");
      expect((await order()).map(([id]: [string]) => id)).toEqual([r[1], r[0], r[2]]);
      // A proposal listed at once drops it.
      await vote(r[2]!, "k4");
      await vote(r[2]!, "k5");
      await vote(r[2]!, "k6");
      await vote(r[2]!, "k8");
      t.clock.advance(1000);
      await propose(fresh.appKey, "Listed", "", "maker-9", hash("maker-9"));
      expect((await order()).map(([id]: [string]) => id)).toEqual([r[2], r[1], r[0]]);
    });

    it("orders a trending search's equally relevant matches by recent votes, then votes", async () => {
      const fresh = await freshApp();
      const version = await fresh.console.post(`/workspaces/${fresh.wsId}/apps/${fresh.appId}/versions`, { label: "3.0", released: false });
      const twins: string[] = [];
      for (let i = 0; i < 3; i++) {
        t.clock.advance(1000);
        const id = (await propose(fresh.appKey, "Widget dock", "Same words")).json().featureRequestId as string;
        // A version filter keeps the search off SQLite's ranked path, so both engines order it in SQL.
        await fresh.console.put(`/workspaces/${fresh.wsId}/feature-requests/${id}`, { versionId: version.body.id });
        twins.push(id);
      }
      for (const token of ["w1", "w2", "w3"]) await vote(twins[0]!, token);
      t.clock.advance(8 * 86_400_000);
      await vote(twins[1]!, "w4");
      const search = await list(`appKey=${fresh.appKey}&q=widget&versionId=${version.body.id}&sort=trending`);
      expect(search.body.requests.map((r: { id: string }) => r.id)).toEqual([twins[1], twins[0], twins[2]]);
      expect(search.body.total).toBe(3);
    });

    it("personalises hasVoted and warns about the deprecated query token; the header wins", async () => {
      const viaQuery = await list(`appKey=${ws.appKey}&userToken=v1&sort=top&limit=1`);
      expect(viaQuery.body.requests[0]).toMatchObject({ id: ids[1], hasVoted: true });
      expect(viaQuery.headers.warning).toBe('299 - "userToken query parameter is deprecated; send X-User-Token header instead"');
      const both = await list(`appKey=${ws.appKey}&userToken=v1&sort=top&limit=1`, { "x-user-token": "nobody" });
      expect(both.body.requests[0].hasVoted).toBe(false);
      expect(both.headers.warning).toBeUndefined();
      expect(both.headers.vary).toContain("X-User-Token");
    });

    it("marks exactly the viewer's votes on every item of a page, whatever its order", async () => {
      const mine = new Set([ids[0]!, ids[3]!, ids[6]!]);
      for (const id of mine) await vote(id, "page-viewer");
      for (const query of ["limit=50", "sort=top&limit=4", "sort=trending&limit=5&offset=1", "sort=newest&limit=3&offset=2"]) {
        const { body } = await list(`appKey=${ws.appKey}&${query}`, { "x-user-token": "page-viewer" });
        expect(body.requests.length, query).toBeGreaterThan(1);
        for (const item of body.requests as Array<{ id: string; hasVoted: boolean }>) expect(item.hasVoted, `${query} ${item.id}`).toBe(mine.has(item.id));
      }
      for (const id of mine) await vote(id, "page-viewer", "DELETE");
    });

    it("filters by version and reads the app key from X-App-Key", async () => {
      const version = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/versions`, { label: "9.9", released: true });
      await t.app.inject({ method: "PUT", url: `/api/v1/console/workspaces/${ws.wsId}/feature-requests/${ids[0]}`, headers: t.admin, payload: { versionId: version.body.id } });
      const filtered = await list(`versionId=${version.body.id}`, { "x-app-key": ws.appKey });
      expect(filtered.status).toBe(200);
      expect(filtered.body.requests.map((r: { id: string }) => r.id)).toEqual([ids[0]]);
      expect(filtered.body.requests[0]).toMatchObject({ versionLabel: "9.9", releasedVersion: "9.9", versionId: version.body.id });
      expect((await list(`appKey=${ws.appKey}&versionId=ver_00000000000000000000000000`)).body.total).toBe(0);
    });

    it("refuses a missing app key, an unknown one and anonymous callers of a closed roadmap", async () => {
      expect((await list("limit=5")).status).toBe(400);
      expect((await list("appKey=app_unknown")).status).toBe(404);
      expect((await list(`appKey=${ws.appKey}&limit=0`)).status).toBe(400);
      expect((await list(`appKey=${ws.appKey}&limit=201`)).status).toBe(400);
      const closed = await freshApp({ allowAnonymousRoadmap: false });
      expect((await list(`appKey=${closed.appKey}`)).status).toBe(401);
      const identified = await list(`appKey=${closed.appKey}`, { "x-user-token": "ivy", "x-user-hash": userHash(closed.signingSecret, "ivy") });
      expect(identified.status).toBe(200);
    });

    it("keeps the cached total exact: votes leave it, a proposal and a console decline change it at once", async () => {
      const fresh = await freshApp();
      const first = (await propose(fresh.appKey, "Counted one")).json().featureRequestId;
      const total = async () => (await list(`appKey=${fresh.appKey}&sort=top&limit=1`)).body.total;
      expect(await total()).toBe(1);
      await vote(first, "counter");
      expect(await total()).toBe(1);
      const second = (await propose(fresh.appKey, "Counted two")).json().featureRequestId;
      expect(await total()).toBe(2);
      await vote(second, "counter");
      expect(await total()).toBe(2);
      await fresh.console.post(`/workspaces/${fresh.wsId}/feature-requests/${first}/decline`);
      expect(await total()).toBe(1);
    });

    it("serves anonymous listings from the cache but shows a new vote at once", async () => {
      const before = await list(`appKey=${ws.appKey}&sort=top&limit=1`);
      expect(before.headers["cache-control"]).toBe("public, max-age=10");
      const count = before.body.requests[0].voteCount;
      await vote(before.body.requests[0].id, "late-voter");
      const after = await list(`appKey=${ws.appKey}&sort=top&limit=1`);
      expect(after.body.requests[0].voteCount).toBe(count + 1);
    });
  });

  describe("search", () => {
    let ws: Workspace;
    const id: Record<string, string> = {};
    beforeAll(async () => {
      ws = await freshApp();
      const seed: Array<[string, string, string]> = [
        ["darkTitle", "Dark mode", "Easier on the eyes at night"],
        ["darkBody", "Theme options", "Maybe a dark mode for the editor"],
        ["cafe", "Café menu support", "Show the menu of a café"],
        ["other", "Export to PDF", "Print friendly output"],
        ["naive", "Naïve Bayes spam filter", "Filter comments automatically"],
      ];
      for (const [key, title, description] of seed) {
        t.clock.advance(1000);
        id[key] = (await propose(ws.appKey, title, description)).json().featureRequestId;
      }
    });
    const search = async (q: string) =>
      (await list(`appKey=${ws.appKey}&q=${encodeURIComponent(q)}`)).body.requests.map((r: { id: string }) => r.id);

    it("finds by prefix, ignores case and accents, and ranks title matches first", async () => {
      expect(await search("dark mo")).toEqual([id.darkTitle, id.darkBody]);
      expect(await search("DARK")).toEqual([id.darkTitle, id.darkBody]);
      expect(await search("cafe")).toEqual([id.cafe]);
      expect(await search("CAFÉ MEN")).toEqual([id.cafe]);
      expect(await search("naive")).toEqual([id.naive]);
      expect(await search("naïve bayes")).toEqual([id.naive]);
    });

    it("requires every word and finds nothing for unknown words or punctuation", async () => {
      expect(await search("dark pdf")).toEqual([]);
      expect(await search("zebra")).toEqual([]);
      expect(await search("!!!")).toEqual([]);
      // Query syntax of either engine is plain text to us.
      expect(await search("\"dark\" *")).toEqual([id.darkTitle, id.darkBody]);
      expect(await search("dark:* & (")).toEqual([id.darkTitle, id.darkBody]);
    });

    it("searches column and version names too, and reflects edits", async () => {
      const columns = (await ws.console.get(`/workspaces/${ws.wsId}/apps/${ws.appId}/columns`)).body.columns;
      const planned = columns.find((c: { slug: string }) => c.slug === "planned");
      const moved = await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id.other}`, { columnId: planned.id });
      expect(moved.status).toBe(200);
      expect(await search("planned")).toEqual([id.other]);
      await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id.other}`, { title: "Export to spreadsheet" });
      expect(await search("spreadsh")).toEqual([id.other]);
      expect(await search("pdf")).toEqual([]);
    });

    it("finds the caller's own pending requests and filters searches by version", async () => {
      const other = await freshApp({ moderationPolicy: "anonymous" });
      const pending = (await propose(other.appKey, "Dark pending idea", "", "sam")).json().featureRequestId;
      const approved = (await propose(other.appKey, "Dark approved idea", "", "tia", { "x-user-hash": userHash(other.signingSecret, "tia") })).json().featureRequestId;
      const ids = async (query: string, headers: Record<string, string> = {}) =>
        (await list(`appKey=${other.appKey}&${query}`, headers)).body.requests.map((r: { id: string }) => r.id);
      expect(await ids("q=dark")).toEqual([approved]);
      expect((await ids("q=dark", { "x-user-token": "sam" })).sort()).toEqual([approved, pending].sort());
      const version = await other.console.post(`/workspaces/${other.wsId}/apps/${other.appId}/versions`, { label: "7.0", released: true });
      await other.console.put(`/workspaces/${other.wsId}/feature-requests/${approved}`, { versionId: version.body.id });
      expect(await ids(`q=dark&versionId=${version.body.id}`)).toEqual([approved]);
      expect(await ids(`q=pending&versionId=${version.body.id}`)).toEqual([]);
      // Another app's requests never match.
      expect((await list(`appKey=${ws.appKey}&q=pending`)).body.total).toBe(0);
    });

    // PostgreSQL's search orders each relevance tier by votes, though its words live in a table
    // of their own (migration 0024); SQLite's anonymous search orders a tier by age.
    it.runIf(dialect === "postgres")("orders equally relevant matches by their votes as votes come and go", async () => {
      const older = (await propose(ws.appKey, "Widget for the lock screen", "")).json().featureRequestId;
      t.clock.advance(1000);
      const newer = (await propose(ws.appKey, "Widget for the home screen", "")).json().featureRequestId;
      const vote = (method: "POST" | "DELETE", token: string) =>
        t.app.inject({ method, url: `/api/v1/feature-requests/${older}/vote`, headers: { "x-user-token": token }, payload: {} });
      expect(await search("widget")).toEqual([newer, older]);
      expect((await vote("POST", "wanda")).statusCode).toBe(200);
      expect(await search("widget")).toEqual([older, newer]);
      expect((await vote("DELETE", "wanda")).statusCode).toBe(200);
      expect(await search("widget")).toEqual([newer, older]);
    });

    it("pages search results with a cursor", async () => {
      const first = await list(`appKey=${ws.appKey}&q=dark&limit=1`);
      expect(first.body).toMatchObject({ total: 2, hasMore: true });
      const second = await list(`appKey=${ws.appKey}&q=dark&limit=1&cursor=${first.body.nextCursor}`);
      expect(second.body.requests.map((r: { id: string }) => r.id)).toEqual([id.darkBody]);
      expect((await list(`appKey=${ws.appKey}&q=cafe&limit=1&cursor=${first.body.nextCursor}`)).status).toBe(400);
    });
  });
});

describe.each(testDialects())("search rate limits on %s", (dialect) => {
  let t: TestApp;
  let ws: Workspace;
  const board = publicBoard(() => t, `rl-${dialect}`);
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ws = await board.freshApp();
  });
  afterAll(() => t.close());

  const get = (query: string, ip: string) => t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}&${query}`, remoteAddress: ip });

  it("answers the 31st search in 60 s with 429 and Retry-After, leaving plain listings their own budget", async () => {
    for (let i = 0; i < 30; i++) expect((await get(`q=dark${i}`, "198.51.100.1")).statusCode).toBe(200);
    const refused = await get("q=dark", "198.51.100.1");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: "Too many searches. Please try again shortly.", code: "rate_limited" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect((await get("limit=5", "198.51.100.1")).statusCode).toBe(200);
    expect((await get("q=dark", "198.51.100.2")).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await get("q=dark", "198.51.100.1")).statusCode).toBe(200);
  });
});
