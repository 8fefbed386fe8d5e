import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import type { Workspace } from "@tidings/testing/console-client";
import { publicBoard } from "@tidings/testing/public-board-kit";
import { userHash } from "../users/identity.js";

describe.each(testDialects())("public feature request votes on %s", (dialect) => {
  let t: TestApp;
  let acme: Workspace;
  const { freshApp, propose, list, vote } = publicBoard(() => t, `ws-${dialect}`);

  beforeAll(async () => {
    // The rate limits have their own suite below; here one address sends hundreds of requests.
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    acme = await freshApp();
  });
  afterAll(() => t.close());

  describe("votes", () => {
    let ws: Workspace;
    let requestId: string;
    beforeAll(async () => {
      ws = await freshApp();
      requestId = (await propose(ws.appKey, "Vote on me")).json().featureRequestId;
    });

    it("toggles with POST and removes idempotently with DELETE", async () => {
      expect((await vote(requestId, "jo")).json()).toEqual({ voted: true, voteCount: 1 });
      expect((await vote(requestId, "kim")).json()).toEqual({ voted: true, voteCount: 2 });
      expect((await vote(requestId, "jo")).json()).toEqual({ voted: false, voteCount: 1 });
      expect((await vote(requestId, "kim", "DELETE")).json()).toEqual({ voted: false, voteCount: 0 });
      expect((await vote(requestId, "kim", "DELETE")).json()).toEqual({ voted: false, voteCount: 0 });
      const legacy = await t.app.inject({
        method: "POST",
        url: `/api/v1/feature-requests/${requestId}/vote`,
        payload: { appKey: ws.appKey, userToken: "lee" },
      });
      expect(legacy.json()).toEqual({ voted: true, voteCount: 1 });
    });

    it("never double counts concurrent toggles", async () => {
      const target = (await propose(ws.appKey, "Concurrency")).json().featureRequestId;
      const many = await Promise.all(Array.from({ length: 20 }, (_, i) => vote(target, `crowd-${i}`)));
      expect(many.every((r) => r.statusCode === 200)).toBe(true);
      const same = await Promise.all(Array.from({ length: 9 }, () => vote(target, "twitchy")));
      expect(same.every((r) => r.statusCode === 200)).toBe(true);
      const stored = await t.database.db.kysely
        .selectFrom("featureRequestVotes")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("featureRequestId", "=", target)
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(21); // 9 toggles by one user leave one vote
      const { body } = await list(`appKey=${ws.appKey}&sort=top&limit=1`);
      expect(body.requests[0]).toMatchObject({ id: target, voteCount: 21 });
    });

    it("keeps voteCount equal to the stored votes through concurrent toggles and removals", async () => {
      const target = (await propose(ws.appKey, "Mixed traffic")).json().featureRequestId;
      // Six voters, each toggling and removing several times at once: many removals find no vote.
      const answers = await Promise.all(Array.from({ length: 42 }, (_, i) => vote(target, `mix-${i % 6}`, i % 3 === 2 ? "DELETE" : "POST")));
      expect(answers.every((r) => r.statusCode === 200)).toBe(true);
      const db = t.database.db.kysely;
      const stored = await db.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", target).execute();
      const row = await db.selectFrom("featureRequests").select("voteCount").where("id", "=", target).executeTakeFirstOrThrow();
      expect(row.voteCount).toBe(stored.length);
      // One more vote by a new voter answers the count the stored votes give.
      expect((await vote(target, "mix-late")).json()).toEqual({ voted: true, voteCount: stored.length + 1 });
    });

    it("refuses anonymous votes with 401 when anonymous voting is off, and votes without a token", async () => {
      const closed = await freshApp({ allowAnonymousVote: false });
      const target = (await propose(closed.appKey, "Closed voting")).json().featureRequestId;
      const anonymous = await vote(target, "mo");
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().code).toBe("authentication_required");
      const identified = await vote(target, "mo", "POST", { "x-user-hash": userHash(closed.signingSecret, "mo") });
      expect(identified.json()).toEqual({ voted: true, voteCount: 1 });
      const noToken = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${requestId}/vote`, payload: {} });
      expect(noToken.statusCode).toBe(401);
      expect(noToken.json().code).toBe("user_token_required");
    });

    it("applies a console change to the app to the very next vote, though votes keep the app cached", async () => {
      const ws = await freshApp();
      const target = (await propose(ws.appKey, "Settings reach votes")).json().featureRequestId;
      expect((await vote(target, "pat")).json()).toEqual({ voted: true, voteCount: 1 });
      expect((await vote(target, "quinn")).json()).toEqual({ voted: true, voteCount: 2 });
      await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { allowAnonymousVote: false });
      const refused = await vote(target, "pat");
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe("authentication_required");
      await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { allowPublic: false });
      expect((await vote(target, "pat", "POST", { "x-user-hash": userHash(ws.signingSecret, "pat") })).json().code).toBe("feature_request_not_found");
    });

    it("refuses a vote on a request hidden behind the cache's back, and stores nothing", async () => {
      const target = (await propose(ws.appKey, "Soon declined")).json().featureRequestId;
      const merged = (await propose(ws.appKey, "Soon merged")).json().featureRequestId;
      expect((await vote(target, "early")).json()).toEqual({ voted: true, voteCount: 1 });
      expect((await vote(merged, "early")).json()).toEqual({ voted: true, voteCount: 1 });
      // As another instance's console would: straight to the database, no cache invalidated here.
      const db = t.database.db.kysely;
      await db.updateTable("featureRequests").set({ moderation: "declined" }).where("id", "=", target).execute();
      await db.updateTable("featureRequests").set({ mergedIntoId: requestId }).where("id", "=", merged).execute();
      const endUsers = async () => (await db.selectFrom("endUsers").select("id").where("appId", "=", ws.appId).execute()).length;
      const knownUsers = await endUsers();
      for (const [id, token] of [[target, "late"], [target, "early"], [merged, "late"]] as const) {
        const refused = await vote(id, token);
        expect(refused.statusCode).toBe(404);
        expect(refused.json().code).toBe("feature_request_not_found");
      }
      const stored = await db.selectFrom("featureRequestVotes").select("featureRequestId").where("featureRequestId", "in", [target, merged]).execute();
      expect(stored).toHaveLength(2);
      // Nor was the new voter who only got a 404 kept as an end user.
      expect(await endUsers()).toBe(knownUsers);
    });

    it("refuses a vote on a request deleted behind the cache's back with 404, and stores nothing", async () => {
      const target = (await propose(ws.appKey, "Soon deleted")).json().featureRequestId;
      expect((await vote(target, "early")).json()).toEqual({ voted: true, voteCount: 1 });
      // As another instance's console would: straight to the database, no cache invalidated here.
      const db = t.database.db.kysely;
      await db.deleteFrom("featureRequests").where("id", "=", target).execute();
      for (const token of ["late", "early"]) {
        const refused = await vote(target, token);
        expect(refused.statusCode).toBe(404);
        expect(refused.json().code).toBe("feature_request_not_found");
      }
      expect(await db.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", target).execute()).toEqual([]);
    });

    it("answers unknown, malformed and foreign ids with 4xx and stores nothing", async () => {
      expect((await vote("fr_00000000000000000000000000", "ned")).statusCode).toBe(404);
      expect((await vote("not-an-id", "ned")).statusCode).toBe(400);
      const foreign = await t.app.inject({
        method: "POST",
        url: `/api/v1/feature-requests/${requestId}/vote`,
        payload: { appKey: acme.appKey, userToken: "ned" },
      });
      expect(foreign.statusCode).toBe(404);
      const votes = await t.database.db.kysely.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", requestId).execute();
      expect(votes).toHaveLength(1);
    });
  });
});

describe.each(testDialects())("vote rate limits on %s", (dialect) => {
  let t: TestApp;
  let ws: Workspace;
  const board = publicBoard(() => t, `rl-${dialect}`);
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ws = await board.freshApp();
  });
  afterAll(() => t.close());

  it("answers a user's 21st vote in 60 s with 429, while another user behind the same address still votes", async () => {
    const id = (
      await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "rl" }, payload: { appKey: ws.appKey, title: "Rate me" } })
    ).json().featureRequestId;
    const ip = "198.51.100.9";
    const vote = (token: string) => t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token }, payload: {}, remoteAddress: ip });
    for (let i = 0; i < 20; i++) expect((await vote("rl-voter")).statusCode).toBe(200);
    const refused = await vote("rl-voter");
    expect(refused.statusCode).toBe(429);
    expect((await vote("rl-neighbour")).statusCode).toBe(200);
    expect(refused.json().error).toBe("Too many votes. Please try again shortly.");
  });
});
