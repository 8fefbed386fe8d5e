import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import type { Workspace } from "@tidings/testing/console-client";
import { publicBoard } from "@tidings/testing/public-board-kit";
import { userHash } from "../users/identity.js";

describe.each(testDialects())("public feature request proposals on %s", (dialect) => {
  let t: TestApp;
  let acme: Workspace;
  const { freshApp, propose, list } = publicBoard(() => t, `ws-${dialect}`);

  beforeAll(async () => {
    // Rate limits are tested with the listing and votes; here one address sends many requests.
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    acme = await freshApp();
  });
  afterAll(() => t.close());

  describe("proposals and moderation", () => {
    it("answers {featureRequestId, pending} and lists an approved request with every wire field", async () => {
      const res = await propose(acme.appKey, "  Export to CSV  ", "Spreadsheets please", "alice");
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ featureRequestId: expect.stringMatching(/^fr_/), pending: false });
      const { body } = await list(`appKey=${acme.appKey}`);
      const item = body.requests.find((r: { id: string }) => r.id === res.json().featureRequestId);
      for (const key of ["id", "appId", "title", "description", "status", "approved", "voteCount", "hasVoted", "isOwnRequest", "createdAt", "updatedAt", "commentCount", "columnId", "columnSlug", "columnName", "versionId", "versionLabel", "recentCommenters", "hasMoreCommenters"]) {
        expect(item, key).toHaveProperty(key);
      }
      expect(item).toMatchObject({ title: "Export to CSV", status: "under-review", approved: true, voteCount: 0, hasVoted: false, isOwnRequest: false });
    });

    it("keeps unidentified proposals pending under the anonymous policy, visible to their submitter only", async () => {
      const ws = await freshApp({ moderationPolicy: "anonymous" });
      const pending = await propose(ws.appKey, "Offline mode", "", "bob");
      expect(pending.json().pending).toBe(true);
      const identified = await propose(ws.appKey, "Widgets", "", "carol", { "x-user-hash": userHash(ws.signingSecret, "carol") });
      expect(identified.json().pending).toBe(false);

      const anonymous = await list(`appKey=${ws.appKey}`);
      expect(anonymous.body.requests.map((r: { title: string }) => r.title)).toEqual(["Widgets"]);
      expect(anonymous.body.total).toBe(1);
      const own = await list(`appKey=${ws.appKey}`, { "x-user-token": "bob" });
      const mine = own.body.requests.find((r: { title: string }) => r.title === "Offline mode");
      expect(mine).toMatchObject({ approved: false, isOwnRequest: true, status: "under-review" });
      expect((await list(`appKey=${ws.appKey}`, { "x-user-token": "dave" })).body.total).toBe(1);
      // Its comments are not reachable either.
      const comments = await t.app.inject({ url: `/api/v1/feature-requests/${pending.json().featureRequestId}/comments` });
      expect(comments.statusCode).toBe(404);
      expect(comments.json().error).toBe("Feature request not found");
    });

    it("holds every proposal under the all policy", async () => {
      const ws = await freshApp({ moderationPolicy: "all" });
      const res = await propose(ws.appKey, "Identified but moderated", "", "erin", { "x-user-hash": userHash(ws.signingSecret, "erin") });
      expect(res.json().pending).toBe(true);
    });

    it("accepts the spec's `details` and the SDKs' body token", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/feature-requests",
        payload: { appKey: acme.appKey, title: "Details alias", details: "From the spec", requesterToken: "frank", requesterName: "Frank" },
      });
      expect(res.statusCode).toBe(201);
      const { body } = await list(`appKey=${acme.appKey}`, { "x-user-token": "frank" });
      expect(body.requests.find((r: { title: string }) => r.title === "Details alias")).toMatchObject({
        description: "From the spec",
        requesterName: "Frank",
        isOwnRequest: true,
        requesterClerkId: expect.stringMatching(/^u_[0-9a-f]{32}$/),
      });
    });

    it("counts a title's length in characters (code points), as the schema does", async () => {
      const ws = await freshApp();
      // 200 emoji are 400 UTF-16 units: within the limit of 200 characters.
      for (const title of ["🦄".repeat(200), "é🦄".repeat(100), "🦄🦄🦄"]) {
        const res = await propose(ws.appKey, title);
        expect(res.statusCode, res.body).toBe(201);
        const stored = await t.database.db.kysely.selectFrom("featureRequests").select("title").where("id", "=", res.json().featureRequestId).executeTakeFirstOrThrow();
        expect(stored.title).toBe(title);
      }
      for (const title of ["🦄".repeat(201), "🦄🦄"]) {
        const res = await propose(ws.appKey, title);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: "validation_failed", details: { fieldErrors: { title: ["Title must be 3 to 200 characters"] } } });
      }
    });

    it("refuses bad proposals with 4xx and writes nothing", async () => {
      const ws = await freshApp();
      const cases: Array<[Record<string, unknown> | string, number]> = [
        [{ appKey: ws.appKey, title: "x".repeat(201) }, 400],
        [{ appKey: ws.appKey, title: "  a " }, 400],
        [{ appKey: ws.appKey }, 400],
        [{ appKey: "app_nope", title: "Valid title" }, 404],
        [{ title: "Valid title" }, 400],
        ["", 400],
      ];
      for (const [payload, status] of cases) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/v1/feature-requests",
          headers: { "content-type": "application/json", "x-user-token": "gina" },
          payload: typeof payload === "string" ? payload : JSON.stringify(payload),
        });
        expect(res.statusCode, JSON.stringify(payload)).toBe(status);
        expect(res.json()).toHaveProperty("error");
      }
      const badToken = await propose(ws.appKey, "Valid title", "", "bad token with spaces");
      expect(badToken.statusCode).toBe(400);
      expect((await list(`appKey=${ws.appKey}`)).body.total).toBe(0);
    });

    it("refuses anonymous proposals with 401 when anonymous feedback is off", async () => {
      const ws = await freshApp({ allowAnonymousFeedback: false });
      const res = await propose(ws.appKey, "Let me in");
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe("authentication_required");
      const ok = await propose(ws.appKey, "Let me in", "", "hank", { "x-user-hash": userHash(ws.signingSecret, "hank") });
      expect(ok.statusCode).toBe(201);
    });
  });

  describe("intake guard", () => {
    it("refuses a proposal without verification with 403 and writes nothing", async () => {
      const ws = await freshApp({ verification: { provider: "turnstile", siteKey: "0xSITE", secretKey: "0xSECRET" } });
      const res = await propose(ws.appKey, "Needs a human");
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe("verification_required");
      expect(res.json().error).toMatch(/turnstile/i);
      expect((await list(`appKey=${ws.appKey}`)).body.total).toBe(0);
    });

    it("refuses proposals of an inactive workspace and past the monthly quota with 402", async () => {
      const ws = await freshApp();
      await ws.console.put(`/workspaces/${ws.wsId}`, { subscriptionStatus: "canceled" });
      const inactive = await propose(ws.appKey, "Too late");
      expect(inactive.statusCode).toBe(402);
      expect(inactive.json().code).toBe("subscription_inactive");
      await ws.console.put(`/workspaces/${ws.wsId}`, { subscriptionStatus: "active", monthlySubmissionQuota: 1 });
      expect((await propose(ws.appKey, "First one")).statusCode).toBe(201);
      const over = await propose(ws.appKey, "Second one");
      expect(over.statusCode).toBe(402);
      expect(over.json().code).toBe("tier_limit_submissions");
      expect((await list(`appKey=${ws.appKey}`)).body.total).toBe(1);
      expect((await ws.console.get(`/workspaces/${ws.wsId}/usage`)).body.submissions).toBe(1);
    });

    it("creates exactly the quota's proposals when more arrive at once, and writes nothing for the rest", async () => {
      const ws = await freshApp();
      await ws.console.put(`/workspaces/${ws.wsId}`, { monthlySubmissionQuota: 3 });
      // All pass the early check together: the slot taken in each transaction is what refuses.
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => propose(ws.appKey, `Rush ${i}`, "", `rusher-${i}`)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 201, 402, 402, 402, 402, 402]);
      for (const over of answers.filter((a) => a.statusCode === 402)) expect(over.json().code).toBe("tier_limit_submissions");
      const created = answers.filter((a) => a.statusCode === 201).map((a) => a.json().featureRequestId as string);
      const listed = (await list(`appKey=${ws.appKey}&limit=50`)).body;
      expect(listed.total).toBe(3);
      expect(listed.requests.map((r: { id: string }) => r.id).sort()).toEqual(created.sort());
      expect((await ws.console.get(`/workspaces/${ws.wsId}/usage`)).body.submissions).toBe(3);
    });

    it("checks the app before the body: an unknown app is 404 whatever the body holds", async () => {
      const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", payload: { appKey: "app_unknown", title: 5 } });
      expect(res.statusCode).toBe(404);
      const closed = await freshApp({ allowAnonymousFeedback: false });
      const anonymous = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", payload: { appKey: closed.appKey, title: 5 } });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe("columns", () => {
    it("sends the requests of a deleted column back to review", async () => {
      const ws = await freshApp();
      const id = (await propose(ws.appKey, "Movable request")).json().featureRequestId;
      const columns = (await ws.console.get(`/workspaces/${ws.wsId}/apps/${ws.appId}/columns`)).body.columns;
      const planned = columns.find((c: { slug: string }) => c.slug === "planned");
      await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { columnId: planned.id });
      expect((await list(`appKey=${ws.appKey}`)).body.requests[0].status).toBe("planned");
      expect((await ws.console.delete(`/workspaces/${ws.wsId}/columns/${planned.id}`)).status).toBe(200);
      const after = (await list(`appKey=${ws.appKey}`)).body.requests[0];
      expect(after).toMatchObject({ id, status: "under-review", columnSlug: "under-review" });
      expect((await list(`appKey=${ws.appKey}&q=planned`)).body.total).toBe(0);
    });
  });
});
