import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { publicBoard } from "@tidings/testing/public-board-kit";
import { tokenHash } from "../users/identity.js";

describe.each(testDialects())("one feature request and similar requests on %s", (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
  });
  afterAll(() => t.close());

  const { freshApp } = publicBoard(() => t, `item-${dialect}`);

  async function propose(appKey: string, title: string, token = "proposer"): Promise<string> {
    const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": token }, payload: { appKey, title } });
    expect(res.statusCode).toBe(201);
    return res.json().featureRequestId as string;
  }

  const get = (id: string, headers: Record<string, string> = {}, query = "") => t.app.inject({ url: `/api/v1/feature-requests/${id}${query}`, headers });
  const similar = (appKey: string, title: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url: `/api/v1/feature-requests/similar?appKey=${appKey}&title=${encodeURIComponent(title)}`, headers });

  describe("GET /api/v1/feature-requests/:id", () => {
    it("answers the listing's item for the request, with the caller's hasVoted", async () => {
      const ws = await freshApp();
      const id = await propose(ws.appKey, "Dark mode");
      await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": "voter" }, payload: {} });
      const listed = (await t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}`, headers: { "x-user-token": "voter" } })).json().requests[0];

      const mine = await get(id, { "x-user-token": "voter" });
      expect(mine.statusCode).toBe(200);
      expect(mine.json()).toEqual(listed);
      expect(mine.json()).toMatchObject({ title: "Dark mode", voteCount: 1, hasVoted: true });
      expect((await get(id)).json()).toMatchObject({ voteCount: 1, hasVoted: false, isOwnRequest: false });
      expect((await get(id, { "x-user-token": "proposer" })).json()).toMatchObject({ hasVoted: false, isOwnRequest: true });
    });

    it("answers what changed right after a vote, a comment, a move, a tag or a merge, though the first reads were shared", async () => {
      const ws = await freshApp();
      const id = await propose(ws.appKey, "Calendar sync");
      const other = await propose(ws.appKey, "Calendar export");
      // Anonymous and personal reads first, so the next ones could be served from what they shared.
      expect((await get(id)).json()).toMatchObject({ voteCount: 0, commentCount: 0, hasVoted: false });
      expect((await get(id, { "x-user-token": "voter" })).json()).toMatchObject({ voteCount: 0, hasVoted: false, isOwnRequest: false });

      await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": "voter" }, payload: {} });
      expect((await get(id, { "x-user-token": "voter" })).json()).toMatchObject({ voteCount: 1, hasVoted: true });
      expect((await get(id)).json()).toMatchObject({ voteCount: 1, hasVoted: false });
      expect((await get(id, { "x-user-token": "proposer" })).json()).toMatchObject({ voteCount: 1, hasVoted: false, isOwnRequest: true });

      // Taking the vote back, and a vote the team adds for a caller who read the request before.
      await t.app.inject({ method: "DELETE", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": "voter" }, payload: {} });
      expect((await get(id, { "x-user-token": "voter" })).json()).toMatchObject({ voteCount: 0, hasVoted: false });
      await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": "voter" }, payload: {} });
      expect((await get(id, { "x-user-token": "proposer" })).json()).toMatchObject({ hasVoted: false });
      const proposer = await t.database.db.kysely.selectFrom("endUsers").select("publicId").where("appId", "=", ws.appId).where("tokenHash", "=", tokenHash("proposer")).executeTakeFirstOrThrow();
      expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id}/votes`, { endUserId: proposer.publicId })).status).toBe(200);
      expect((await get(id, { "x-user-token": "proposer" })).json()).toMatchObject({ voteCount: 2, hasVoted: true, isOwnRequest: true });
      expect((await get(id, { "x-user-token": "voter" })).json()).toMatchObject({ voteCount: 2, hasVoted: true, isOwnRequest: false });

      await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/comments`, headers: { "x-user-token": "voter" }, payload: { body: "Yes please" } });
      expect((await get(id)).json()).toMatchObject({ commentCount: 1 });

      expect((await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { columnSlug: "planned" })).status).toBe(200);
      expect((await get(id)).json()).toMatchObject({ status: "planned" });

      const tag = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/tags`, { name: "Calendar" });
      await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/feature-requests/tags`, { featureRequestIds: [id], add: [tag.body.id] });
      expect((await get(id)).json().tags).toEqual([{ name: "Calendar", slug: "calendar", color: null }]);

      expect((await get(other)).statusCode).toBe(200);
      expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${other}/merge`, { intoId: id })).status).toBe(200);
      expect((await get(other)).statusCode).toBe(404);
    });

    it("shows a pending request to its proposer only, and never a merged one", async () => {
      const ws = await freshApp({ moderationPolicy: "all" });
      const pending = await propose(ws.appKey, "Offline mode", "bob");
      expect((await get(pending, { "x-user-token": "bob" })).json()).toMatchObject({ approved: false, isOwnRequest: true });
      expect((await get(pending, { "x-user-token": "carol" })).statusCode).toBe(404);
      const anonymous = await get(pending);
      expect(anonymous.statusCode).toBe(404);
      expect(anonymous.json()).toEqual({ error: "Feature request not found", code: "feature_request_not_found" });

      const open = await freshApp();
      const target = await propose(open.appKey, "Exports");
      const duplicate = await propose(open.appKey, "CSV exports");
      const merged = await open.console.post(`/workspaces/${open.wsId}/feature-requests/${duplicate}/merge`, { intoId: target });
      expect(merged.status).toBe(200);
      expect((await get(duplicate)).statusCode).toBe(404);
    });

    it("refuses as the listing does: private apps, closed roadmaps, another app's key, malformed ids", async () => {
      const closed = await freshApp({ allowAnonymousRoadmap: false });
      const id = await propose(closed.appKey, "Closed board");
      expect((await get(id)).json().code).toBe("authentication_required");
      const other = await freshApp();
      expect((await get(id, {}, `?appKey=${other.appKey}`)).statusCode).toBe(404);
      await closed.console.put(`/workspaces/${closed.wsId}/apps/${closed.appId}/settings`, { allowPublic: false });
      expect((await get(id)).json()).toMatchObject({ code: "feature_request_not_found" });
      expect((await get("fr_nope")).statusCode).toBe(400);
      expect((await get("fr_00000000000000000000000000")).statusCode).toBe(404);
    });
  });

  describe("GET /api/v1/feature-requests/similar", () => {
    it("lists the requests holding the words typed so far, the last one as a prefix", async () => {
      const ws = await freshApp();
      await propose(ws.appKey, "Dark mode");
      await propose(ws.appKey, "Export to CSV");
      await propose(ws.appKey, "Darker charts in reports");
      const res = await similar(ws.appKey, "dark mo");
      expect(res.statusCode).toBe(200);
      expect(res.json().requests.map((r: { title: string }) => r.title)).toEqual(["Dark mode"]);
      expect((await similar(ws.appKey, "dark")).json().requests.map((r: { title: string }) => r.title).sort()).toEqual(["Dark mode", "Darker charts in reports"]);
    });

    it("falls back to requests holding most of the title's words when none holds them all", async () => {
      const ws = await freshApp();
      const dark = await propose(ws.appKey, "Dark mode");
      await propose(ws.appKey, "Export to CSV");
      await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${dark}/vote`, headers: { "x-user-token": "v" }, payload: {} });
      const res = await similar(ws.appKey, "Please add a dark theme", { "x-user-token": "v" });
      expect(res.json().requests).toEqual([expect.objectContaining({ title: "Dark mode", hasVoted: true })]);
      expect((await similar(ws.appKey, "!!")).json().requests).toEqual([]);
    });

    it("never lists hidden requests and refuses unknown apps and bad input", async () => {
      const ws = await freshApp({ moderationPolicy: "all" });
      await propose(ws.appKey, "Dark mode");
      expect((await similar(ws.appKey, "dark")).json().requests).toEqual([]);
      expect((await similar("app_unknown", "dark")).statusCode).toBe(404);
      expect((await t.app.inject({ url: `/api/v1/feature-requests/similar?appKey=${ws.appKey}` })).statusCode).toBe(400);
      expect((await t.app.inject({ url: `/api/v1/feature-requests/similar?appKey=${ws.appKey}&title=x&limit=50` })).statusCode).toBe(400);
    });
  });
});

describe("similar requests' pace", () => {
  it("spends the search budget: the 31st call in a minute is refused with 429", async () => {
    const t = await createTestApp("sqlite");
    try {
      const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "item-pace");
      const call = () => t.app.inject({ url: `/api/v1/feature-requests/similar?appKey=${ws.appKey}&title=dark` });
      for (let i = 0; i < 30; i++) expect((await call()).statusCode).toBe(200);
      const refused = await call();
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["retry-after"]).toBeDefined();
    } finally {
      await t.close();
    }
  });
});
