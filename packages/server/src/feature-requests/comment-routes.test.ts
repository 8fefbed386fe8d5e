import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import type { Workspace } from "@tidings/testing/console-client";
import { publicBoard } from "@tidings/testing/public-board-kit";

describe.each(testDialects())("public feature request comments on %s", (dialect) => {
  let t: TestApp;
  const { freshApp, propose, list } = publicBoard(() => t, `ws-${dialect}`);

  beforeAll(async () => {
    // Rate limits are tested with the listing and votes; here one address sends many requests.
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
  });
  afterAll(() => t.close());

  describe("comments", () => {
    let ws: Workspace;
    let requestId: string;
    let otherId: string;
    beforeAll(async () => {
      ws = await freshApp();
      requestId = (await propose(ws.appKey, "Discuss me")).json().featureRequestId;
      otherId = (await propose(ws.appKey, "Another one")).json().featureRequestId;
    });
    const post = (id: string, payload: Record<string, unknown>, token = "olive") =>
      t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/comments`, headers: { "x-user-token": token }, payload });

    it("posts comments and replies and lists them oldest first", async () => {
      const first = await post(requestId, { body: " First! ", authorName: "Olive" });
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ body: "First!", authorName: "Olive", parentId: null, isTeam: false, isHidden: false, featureRequestId: requestId });
      expect(first.json()).not.toHaveProperty("authorEmail");
      t.clock.advance(1000);
      const reply = await post(requestId, { body: "Agreed", authorName: "Pat", parentId: first.json().id, replyToAuthorName: "Spoofed" }, "pat");
      expect(reply.json()).toMatchObject({ parentId: first.json().id, replyToAuthorName: "Olive", replyToClerkId: first.json().authorClerkId });
      const listed = await t.app.inject({ url: `/api/v1/feature-requests/${requestId}/comments` });
      expect(listed.json()).toMatchObject({ total: 2, hasMore: false, nextCursor: null });
      expect(listed.json().comments.map((c: { body: string }) => c.body)).toEqual(["First!", "Agreed"]);
      const page = await t.app.inject({ url: `/api/v1/feature-requests/${requestId}/comments?limit=1` });
      expect(page.json()).toMatchObject({ total: 2, hasMore: true });
      const rest = await t.app.inject({ url: `/api/v1/feature-requests/${requestId}/comments?limit=1&cursor=${page.json().nextCursor}` });
      expect(rest.json().comments.map((c: { body: string }) => c.body)).toEqual(["Agreed"]);
      expect(rest.json()).toMatchObject({ total: 2, hasMore: false, nextCursor: null });
      // No comment to carry the count: counted on its own.
      expect((await t.app.inject({ url: `/api/v1/feature-requests/${otherId}/comments` })).json()).toMatchObject({ comments: [], total: 0, hasMore: false });
      const item = (await list(`appKey=${ws.appKey}`)).body.requests.find((r: { id: string }) => r.id === requestId);
      expect(item.commentCount).toBe(2);
      expect(item.recentCommenters.map((c: { authorName: string }) => c.authorName)).toEqual(["Pat", "Olive"]);
    });

    it("names a request's recent commenters from its 20 latest comments, each request its own", async () => {
      const app = await freshApp();
      const busy = (await propose(app.appKey, "Busy thread")).json().featureRequestId;
      const quiet = (await propose(app.appKey, "Quiet thread")).json().featureRequestId;
      const say = async (id: string, authorName: string) => {
        t.clock.advance(1000);
        expect((await post(id, { body: `From ${authorName}`, authorName }, authorName.toLowerCase())).statusCode).toBe(201);
      };
      for (const name of ["Ann", "Bea", "Cal"]) await say(busy, name);
      await say(quiet, "Amy");
      for (let i = 0; i < 20; i++) await say(busy, "Zed");
      await say(quiet, "Ben");
      const commenters = async () => {
        const { requests } = (await list(`appKey=${app.appKey}`)).body as { requests: Array<{ id: string; commentCount: number; recentCommenters: Array<{ authorName: string }>; hasMoreCommenters: boolean }> };
        return Object.fromEntries(requests.map((r) => [r.id, { count: r.commentCount, names: r.recentCommenters.map((c) => c.authorName), more: r.hasMoreCommenters }]));
      };
      // Ann, Bea and Cal are 21 comments back: the thread's count still holds all 23.
      expect(await commenters()).toEqual({ [busy]: { count: 23, names: ["Zed"], more: false }, [quiet]: { count: 2, names: ["Ben", "Amy"], more: false } });
      await say(busy, "Yan");
      expect((await commenters())[busy]).toEqual({ count: 24, names: ["Yan", "Zed"], more: false });
    });

    it("keeps a request's recent commenters across votes, and drops them when its thread changes", async () => {
      const app = await freshApp();
      const thread = (await propose(app.appKey, "Kept thread")).json().featureRequestId;
      const other = (await propose(app.appKey, "Other thread")).json().featureRequestId;
      const say = async (id: string, authorName: string) => {
        t.clock.advance(1000);
        const res = await post(id, { body: `From ${authorName}`, authorName }, authorName.toLowerCase());
        expect(res.statusCode).toBe(201);
        return res.json().id as string;
      };
      const names = async () => {
        const { requests } = (await list(`appKey=${app.appKey}`)).body as { requests: Array<{ id: string; recentCommenters: Array<{ authorName: string }> }> };
        return Object.fromEntries(requests.map((r) => [r.id, r.recentCommenters.map((c) => c.authorName)]));
      };
      await say(thread, "Ann");
      const rude = await say(thread, "Rex");
      expect(await names()).toEqual({ [thread]: ["Rex", "Ann"], [other]: [] });
      // A vote drops the listing's pages, not the threads': the commenters are as they were.
      expect((await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${thread}/vote`, headers: { "x-user-token": "voter" }, payload: {} })).statusCode).toBe(200);
      expect(await names()).toEqual({ [thread]: ["Rex", "Ann"], [other]: [] });
      // A comment on one request changes that request's commenters alone.
      await say(other, "Oli");
      expect(await names()).toEqual({ [thread]: ["Rex", "Ann"], [other]: ["Oli"] });
      // Hidden from the console, Rex leaves the listing at once.
      expect((await app.console.patch(`/workspaces/${app.wsId}/comments/${rude}/hide`, { isHidden: true })).body).toEqual({ success: true });
      expect(await names()).toEqual({ [thread]: ["Ann"], [other]: ["Oli"] });
      // Deleted from the console, Oli's comment takes Oli off the other request.
      const commentId = (await t.app.inject({ url: `/api/v1/feature-requests/${other}/comments` })).json().comments[0].id as string;
      expect((await app.console.delete(`/workspaces/${app.wsId}/comments/${commentId}`)).status).toBe(200);
      expect(await names()).toEqual({ [thread]: ["Ann"], [other]: [] });
    });

    it("serves a thread's first page from the shared cache until the thread or the request changes", async () => {
      const app = await freshApp();
      const id = (await propose(app.appKey, "Cached thread")).json().featureRequestId as string;
      const bodies = async (query = "") => {
        const res = await t.app.inject({ url: `/api/v1/feature-requests/${id}/comments${query}` });
        return res.statusCode === 200 ? (res.json().comments as Array<{ body: string }>).map((c) => c.body) : res.statusCode;
      };
      t.clock.advance(1000);
      const first = (await post(id, { body: "One" }, "one")).json().id as string;
      expect(await bodies()).toEqual(["One"]);
      // A public comment shows on the next read.
      t.clock.advance(1000);
      await post(id, { body: "Two" }, "two");
      expect(await bodies()).toEqual(["One", "Two"]);
      // A change the server did not make (a restore, another tool) shows once the kept page expires;
      // a page size of its own is read anew.
      await t.database.db.kysely.updateTable("featureRequestComments").set({ body: "Uno" }).where("id", "=", first).execute();
      expect(await bodies()).toEqual(["One", "Two"]);
      expect(await bodies("?limit=5")).toEqual(["Uno", "Two"]);
      t.clock.advance(11_000);
      expect(await bodies()).toEqual(["Uno", "Two"]);
      // Console writes drop it at once: a hidden comment, then the request declined.
      expect((await app.console.patch(`/workspaces/${app.wsId}/comments/${first}/hide`, { isHidden: true })).body).toEqual({ success: true });
      expect(await bodies()).toEqual(["Two"]);
      await app.console.post(`/workspaces/${app.wsId}/feature-requests/${id}/decline`);
      expect(await bodies()).toBe(404);
    });

    it("refuses a comment on a request hidden or deleted behind the cache's back with 404, and stores nothing", async () => {
      const declined = (await propose(ws.appKey, "Soon declined")).json().featureRequestId;
      const merged = (await propose(ws.appKey, "Soon merged")).json().featureRequestId;
      const deleted = (await propose(ws.appKey, "Soon deleted")).json().featureRequestId;
      // A first comment on each puts the request's public lookup in the shared cache.
      for (const id of [declined, merged, deleted]) expect((await post(id, { body: "Early" }, "early")).statusCode).toBe(201);
      // As another instance's console would: straight to the database, no cache invalidated here.
      const db = t.database.db.kysely;
      await db.updateTable("featureRequests").set({ moderation: "declined" }).where("id", "=", declined).execute();
      await db.updateTable("featureRequests").set({ mergedIntoId: requestId }).where("id", "=", merged).execute();
      await db.deleteFrom("featureRequestComments").where("featureRequestId", "=", deleted).execute();
      await db.deleteFrom("featureRequestEvents").where("featureRequestId", "=", deleted).execute();
      await db.deleteFrom("featureRequests").where("id", "=", deleted).execute();
      const endUsers = async () => (await db.selectFrom("endUsers").select("id").where("appId", "=", ws.appId).execute()).length;
      const knownUsers = await endUsers();
      for (const [id, token] of [[declined, "late"], [declined, "early"], [merged, "late"], [deleted, "late"]] as const) {
        const refused = await post(id, { body: "Late" }, token);
        expect(refused.statusCode).toBe(404);
        expect(refused.json().code).toBe("feature_request_not_found");
      }
      const stored = await db.selectFrom("featureRequests").select(["id", "commentCount"]).where("id", "in", [declined, merged]).orderBy("id").execute();
      expect(stored.map((r) => r.commentCount)).toEqual([1, 1]);
      const comments = await db.selectFrom("featureRequestComments").select("body").where("featureRequestId", "in", [declined, merged, deleted]).execute();
      expect(comments.map((c) => c.body)).toEqual(["Early", "Early"]);
      // Nor was the new commenter who only got a 404 kept as an end user.
      expect(await endUsers()).toBe(knownUsers);
    });

    it("refuses a reply to a comment of another request with 400 invalid_parent and stores nothing", async () => {
      const elsewhere = await post(otherId, { body: "Elsewhere" });
      const res = await post(requestId, { body: "Wrong thread", parentId: elsewhere.json().id });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: "The comment you are replying to was not found on this feature request", code: "invalid_parent" });
      const unknown = await post(requestId, { body: "Ghost parent", parentId: "cmt_00000000000000000000000000" });
      expect(unknown.json().code).toBe("invalid_parent");
      const listed = await t.app.inject({ url: `/api/v1/feature-requests/${requestId}/comments` });
      expect(listed.json().comments.map((c: { body: string }) => c.body)).not.toContain("Wrong thread");
    });

    it("refuses empty bodies, missing tokens and unknown requests", async () => {
      expect((await post(requestId, { body: "   " })).statusCode).toBe(400);
      expect((await post(requestId, {})).statusCode).toBe(400);
      const noToken = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${requestId}/comments`, payload: { body: "hi" } });
      expect(noToken.statusCode).toBe(401);
      const unknown = await post("fr_00000000000000000000000000", { body: "hi" });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toBe("Feature request not found");
    });
  });
});
