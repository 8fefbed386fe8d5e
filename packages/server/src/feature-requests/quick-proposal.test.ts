import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { publicBoard } from "@tidings/testing/public-board-kit";
import { enabledEndpointRow } from "@tidings/testing/webhook-endpoint-row";
import { monthlySubmissions, usageMonth } from "../intake/quota.js";
import { tokenHash } from "../users/identity.js";
import { quickProposal } from "./quick-proposal.js";

// Proposals of callers who already have an end user: on PostgreSQL the single statement of
// quick-proposal.ts stores them, and what it stores must be what the transaction stores.
describe.each(testDialects())("proposals of returning callers on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
  });
  afterAll(() => t.close());

  const { freshApp } = publicBoard(() => t, `quick-${dialect}`);
  const propose = (appKey: string, token: string, title: string) =>
    t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": token }, payload: { appKey, title, description: "" } });
  const list = async (appKey: string, query: string, token: string) =>
    (await t.app.inject({ url: `/api/v1/feature-requests?appKey=${appKey}&limit=100&${query}`, headers: { "x-user-token": token } })).json().requests as { id: string; title: string; isOwnRequest: boolean; status: string }[];

  it("stores each proposal once, as the caller's own, and lets concurrent ones take exactly the quota left", async () => {
    const ws = await freshApp();
    const callers = Array.from({ length: 12 }, (_, i) => `returning-${i}`);
    // Each caller's first proposal makes their end user; 12 of the month's submissions.
    for (const caller of callers) expect((await propose(ws.appKey, caller, `First idea of ${caller}`)).statusCode).toBe(201);
    expect((await ws.console.put(`/workspaces/${ws.wsId}`, { monthlySubmissionQuota: 17 })).status).toBe(200);

    const answers = await Promise.all(callers.map((caller) => propose(ws.appKey, caller, `Second idea of ${caller}`)));
    const stored = answers.filter((a) => a.statusCode === 201);
    expect(stored).toHaveLength(5);
    for (const refused of answers.filter((a) => a.statusCode !== 201)) {
      expect(refused.statusCode).toBe(402);
      expect(refused.json().code).toBe("tier_limit_submissions");
    }
    expect(await monthlySubmissions(t.app.ctx.db.kysely, ws.wsId, usageMonth(t.clock))).toBe(17);

    const ids = stored.map((a) => a.json().featureRequestId as string);
    const seconds = (await list(ws.appKey, "sort=newest", "someone-else")).filter((r) => r.title.startsWith("Second idea"));
    expect(seconds.map((r) => r.id).sort()).toEqual([...ids].sort());
    // Each is its proposer's own, and no one else's.
    for (const [i, answer] of answers.entries()) {
      if (answer.statusCode !== 201) continue;
      const own = (await list(ws.appKey, "sort=newest", callers[i]!)).filter((r) => r.isOwnRequest).map((r) => r.title);
      expect(own.sort()).toEqual([`First idea of ${callers[i]}`, `Second idea of ${callers[i]}`]);
    }
  });

  it("files a proposal under the review column's current name when it was renamed behind the cache", async () => {
    const ws = await freshApp();
    expect((await propose(ws.appKey, "renamer", "Dark mode")).statusCode).toBe(201);
    await t.app.ctx.db.kysely.updateTable("boardColumns").set({ name: "Triage queue" }).where("appId", "=", ws.appId).where("kind", "=", "pending_review").execute();

    const res = await propose(ws.appKey, "renamer", "Offline sync");
    expect(res.statusCode).toBe(201);
    // The column's name is searchable text of the requests in it.
    const found = await list(ws.appKey, "q=triage", "renamer");
    expect(found.map((r) => r.id)).toEqual([res.json().featureRequestId]);
  });
  it("gives new callers who propose at once one end user each, whether the workspace has a quota or not", async () => {
    for (const quota of [null, 1000]) {
      const ws = await freshApp();
      await t.app.ctx.db.kysely.updateTable("workspaces").set({ monthlySubmissionQuota: quota }).where("id", "=", ws.wsId).execute();
      const callers = ["new-a", "new-a", "new-a", "new-b", "new-b"];
      const answers = await Promise.all(callers.map((caller, i) => propose(ws.appKey, caller, `Idea ${i} of ${caller}`)));
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201]);
      const users = await t.app.ctx.db.kysely.selectFrom("endUsers").select("id").where("appId", "=", ws.appId).execute();
      expect(users).toHaveLength(2);
      for (const caller of ["new-a", "new-b"]) {
        const own = (await list(ws.appKey, "sort=newest", caller)).filter((r) => r.isOwnRequest).map((r) => r.title);
        expect(own.sort()).toEqual(callers.flatMap((c, i) => (c === caller ? [`Idea ${i} of ${caller}`] : [])).sort());
      }
      expect(await monthlySubmissions(t.app.ctx.db.kysely, ws.wsId, usageMonth(t.clock))).toBe(5);
    }
  });
});

// The statement itself (PostgreSQL only): it mints a new caller's end user only when everything
// else it writes is sure to be written, and otherwise writes nothing at all.
describe.runIf(testDialects().includes("postgres"))("the proposal statement on postgres", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("postgres", { rateLimits: GENEROUS_RATE_LIMITS });
  });
  afterAll(() => t.close());

  it("mints a new caller and takes the slot last only in a workspace without a quota, and on an app without an enabled webhook endpoint", async () => {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "quick-statement");
    const db = t.app.ctx.db.kysely;
    const attempt = (token: string, unlimited = false) =>
      quickProposal(db, t.app.ctx.cache, t.clock, {
        appId: ws.appId,
        hash: tokenHash(token),
        slot: { workspaceId: ws.wsId, month: usageMonth(t.clock), unlimited },
        title: `Idea of ${token}`,
        description: "",
        approved: true,
        requesterName: null,
        requesterEmail: null,
      });
    const written = async (token: string) => ({
      users: (await db.selectFrom("endUsers").select("id").where("tokenHash", "=", tokenHash(token)).execute()).length,
      requests: (await db.selectFrom("featureRequests").select("id").where("title", "=", `Idea of ${token}`).execute()).length,
      submissions: await monthlySubmissions(db, ws.wsId, usageMonth(t.clock)),
    });

    // The default workspace has a monthly quota: a new caller is left to the transaction, also
    // when the terms were read before the quota was set (the slot-last statement).
    expect(await attempt("with-quota")).toBeUndefined();
    expect(await attempt("with-quota", true)).toBeUndefined();
    expect(await written("with-quota")).toEqual({ users: 0, requests: 0, submissions: 0 });

    await db.updateTable("workspaces").set({ monthlySubmissionQuota: null }).where("id", "=", ws.wsId).execute();
    expect(await attempt("no-quota")).toMatch(/^fr_/);
    expect(await written("no-quota")).toEqual({ users: 1, requests: 1, submissions: 1 });
    // Without a quota the slot is taken last, and still counted.
    expect(await attempt("slot-last", true)).toMatch(/^fr_/);
    expect(await written("slot-last")).toEqual({ users: 1, requests: 1, submissions: 2 });

    await db.insertInto("webhookEndpoints").values(enabledEndpointRow(ws.appId, ["request.created"])).execute();
    expect(await attempt("with-endpoint")).toBeUndefined();
    expect(await attempt("with-endpoint", true)).toBeUndefined();
    expect(await written("with-endpoint")).toEqual({ users: 0, requests: 0, submissions: 2 });
  });
});
