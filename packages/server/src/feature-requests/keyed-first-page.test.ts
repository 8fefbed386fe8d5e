import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordStatements } from "@tidings/testing/statement-recorder";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import type { Workspace } from "@tidings/testing/console-client";
import { publicBoard } from "@tidings/testing/public-board-kit";
import { LIST_CACHE_SECONDS } from "./listing-routes.js";

/**
 * On PostgreSQL the first page of an app not in the cache is read by the app's key, beside the app
 * itself (see `KeyedFirstPage`). These check it against the listing's own reads of the same page,
 * made once the app is cached and the page has expired.
 */
describe.runIf(testDialects().includes("postgres"))("a cold app's first page read by its key on postgres", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("postgres", { rateLimits: GENEROUS_RATE_LIMITS }, { timeQueries: true });
  });
  afterAll(() => t.close());

  const { freshApp } = publicBoard(() => t, "keyed");

  const propose = async (ws: Workspace, title: string, token = "proposer") => {
    t.clock.advance(1000);
    const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": token }, payload: { appKey: ws.appKey, title } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().featureRequestId as string;
  };
  const comment = async (id: string, token: string, authorName?: string) => {
    t.clock.advance(1000);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/v1/feature-requests/${id}/comments`,
      headers: { "x-user-token": token },
      payload: { body: `From ${token}`, ...(authorName === undefined ? {} : { authorName }) },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const vote = async (id: string, token: string) => {
    const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token }, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
  };
  const list = async (query: string) => {
    const res = await t.app.inject({ url: `/api/v1/feature-requests?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { requests: Array<Record<string, unknown> & { id: string; title: string }>; total: number; hasMore: boolean; nextCursor: string | null };
  };
  /** The page first as a cold app's (read by key), then as the listing reads it itself once the app is cached and the page expired. */
  const coldThenOwn = async (query: string) => {
    const cold = await list(query);
    t.clock.advance((LIST_CACHE_SECONDS + 1) * 1000);
    return { cold, own: await list(query) };
  };

  /** An app whose requests have comments, tags, votes and a status, as a board in use does. */
  async function busyApp() {
    const ws = await freshApp();
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await propose(ws, `Busy idea ${i}`, `author-${i % 3}`));
    // Commenters: people by their token, a team member, names, a hidden comment, and more than
    // four people on one thread (the listing names three and says there are more).
    for (const who of ["ann", "bob", "cy", "dee", "eve"]) await comment(ids[0]!, who, who.toUpperCase());
    await comment(ids[0]!, "ann", "ANN");
    await comment(ids[1]!, "quiet");
    const rude = await comment(ids[1]!, "rude", "Rude");
    expect((await ws.console.patch(`/workspaces/${ws.wsId}/comments/${rude}/hide`, { isHidden: true })).status).toBe(200);
    expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${ids[2]}/comments`, { body: "On it" })).status).toBe(201);
    for (let i = 0; i < 22; i++) await comment(ids[3]!, `talker-${i % 6}`);
    // Public tags (two on one request, shown by name) and a team-only one the public never sees.
    const zeta = (await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/tags`, { name: "Zeta", color: "#112233" })).body.id as string;
    const alpha = (await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/tags`, { name: "Alpha" })).body.id as string;
    const team = (await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/tags`, { name: "Triage", visibility: "team" })).body.id as string;
    const tag = (featureRequestIds: string[], add: string[]) => ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/feature-requests/tags`, { featureRequestIds, add });
    expect((await tag([ids[0]!, ids[4]!], [zeta, alpha, team])).status).toBe(200);
    expect((await tag([ids[5]!], [team])).status).toBe(200);
    // Votes, so `top` differs from `newest`.
    for (const [i, voters] of [[6, 3], [2, 2], [5, 1]] as const) for (let v = 0; v < voters; v++) await vote(ids[i]!, `voter-${v}`);
    return { ws, ids };
  }

  it("answers exactly what the listing's own reads answer, on every first page of the whole app", async () => {
    const { ws } = await busyApp();
    for (const query of ["", "&sort=top", "&limit=3", "&sort=top&limit=2", "&limit=100", "&sort=newest&offset=0"]) {
      // A fresh app key read each time: drop what the previous round cached.
      t.clock.advance(61_000);
      const { cold, own } = await coldThenOwn(`appKey=${ws.appKey}${query}`);
      expect(cold, query).toEqual(own);
      expect(cold.requests.length, query).toBeGreaterThan(0);
    }
    const { cold } = await coldThenOwn(`appKey=${ws.appKey}&limit=100`);
    const byTitle = new Map(cold.requests.map((r) => [r.title, r]));
    expect(cold.total).toBe(8);
    expect(byTitle.get("Busy idea 0")).toMatchObject({
      commentCount: 6,
      recentCommenters: [{ authorName: "ANN" }, { authorName: "EVE" }, { authorName: "DEE" }],
      hasMoreCommenters: true,
      tags: [{ name: "Alpha", slug: "alpha", color: null }, { name: "Zeta", slug: "zeta", color: "#112233" }],
    });
    expect(byTitle.get("Busy idea 1")).toMatchObject({ commentCount: 1, hasMoreCommenters: false, tags: [] });
    expect((byTitle.get("Busy idea 1")!.recentCommenters as unknown[]).length).toBe(1);
    expect(byTitle.get("Busy idea 5")).toMatchObject({ tags: [] });
  });

  it("reads the page in one statement beside the app and its boards", async () => {
    const { ws } = await busyApp();
    t.clock.advance(61_000);
    const statements = await recordStatements(t.database.db, () => list(`appKey=${ws.appKey}`));
    const page = statements.filter((s) => s.sql.includes("feature_request"));
    // The app's key for the page and for its count; the page's 50 rows and one more, written in
    // (first-page.ts: a bound LIMIT had PostgreSQL plan the statement on every read).
    expect(page.map((s) => s.parameters)).toEqual([[ws.appKey, ws.appKey]]);
    expect(page[0]!.sql).toMatch(/ limit 51$/);
    // Its count was kept as the listing keeps its own: the page read again once the app is
    // cached, and expired, counts nothing.
    t.clock.advance((LIST_CACHE_SECONDS + 1) * 1000);
    const again = await recordStatements(t.database.db, () => list(`appKey=${ws.appKey}`));
    expect(again.filter((s) => s.sql.includes("feature_request")).length).toBeGreaterThan(0);
    expect(again.filter((s) => /count\(\*\)/.test(s.sql))).toEqual([]);
  });

  it("is not used where the caller does not see every board, nor for an empty app", async () => {
    const { ws, ids } = await busyApp();
    const staff = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/boards`, { name: "Staff", visibility: "private", accessRule: { plans: ["staff"] } });
    expect(staff.status).toBe(201);
    const moved = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/feature-requests/move`, { boardId: staff.body.id, featureRequestIds: [ids[7], ids[6]] });
    expect(moved.body).toEqual({ moved: 2 });
    t.clock.advance(61_000);
    const { cold, own } = await coldThenOwn(`appKey=${ws.appKey}&limit=100&sort=top`);
    expect(cold).toEqual(own);
    expect(cold.total).toBe(6);
    expect(cold.requests.map((r) => r.id)).not.toContain(ids[6]);

    const empty = await freshApp();
    const none = await coldThenOwn(`appKey=${empty.appKey}`);
    expect(none.cold).toEqual({ requests: [], total: 0, hasMore: false, nextCursor: null });
    expect(none.cold).toEqual(none.own);
  });

  it("answers an unknown or private app's key as before: not found", async () => {
    const ws = await freshApp();
    await propose(ws, "Hidden away");
    await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { allowPublic: false });
    t.clock.advance(61_000);
    for (const key of [ws.appKey, "app_nobody_has_this_key"]) {
      const res = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${key}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: "app_not_found" });
    }
  });
});
