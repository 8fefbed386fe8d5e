import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkIntake } from "./intake.js";
import { monthlySubmissions, usageMonth } from "./quota.js";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { appRowOf, submitThroughGuard } from "@tidings/testing/intake-kit";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("subscription and monthly quota on %s", (dialect) => {
  let t: TestApp;
  let slugs = 0;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** A fresh workspace with one app, its plan fields set by the operator. */
  async function workspaceWith(billing: { subscriptionStatus?: string; monthlySubmissionQuota?: number | null }) {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `quota-co-${++slugs}`);
    const res = await ws.console.put(`/workspaces/${ws.wsId}`, billing);
    expect(res.status).toBe(200);
    return ws;
  }
  const submit = (appKey: string) => submitThroughGuard(t.app.ctx, appKey);
  const used = (wsId: string) => monthlySubmissions(t.app.ctx.db.kysely, wsId, usageMonth(t.clock));

  it.each(["past_due", "canceled", "inactive"])("refuses a %s workspace with 402 subscription_inactive", async (status) => {
    const ws = await workspaceWith({ subscriptionStatus: status });
    const res = await submit(ws.appKey);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: "This workspace's subscription is inactive", code: "subscription_inactive" });
    expect(await used(ws.wsId)).toBe(0);
  });

  it.each(["trialing", "active"])("accepts a %s workspace", async (status) => {
    const ws = await workspaceWith({ subscriptionStatus: status });
    expect((await submit(ws.appKey)).status).toBe(201);
    expect(await used(ws.wsId)).toBe(1);
  });

  it("refuses the submission after the last slot with 402 tier_limit_submissions, writing nothing", async () => {
    const ws = await workspaceWith({ monthlySubmissionQuota: 2 });
    expect((await submit(ws.appKey)).status).toBe(201);
    expect((await submit(ws.appKey)).status).toBe(201);
    const refused = await submit(ws.appKey);
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ error: "Monthly submission quota reached for this workspace", code: "tier_limit_submissions" });
    expect(await used(ws.wsId)).toBe(2);
  });

  it("lets exactly one of 10 concurrent submissions take the last slot", async () => {
    const ws = await workspaceWith({ monthlySubmissionQuota: 3 });
    expect((await submit(ws.appKey)).status).toBe(201);
    expect((await submit(ws.appKey)).status).toBe(201);
    const app = await appRowOf(t.app.ctx, ws.appKey);
    // All ten pass the early check (2 of 3 used), then race for the slot in their own transactions.
    const passes = await Promise.all(
      Array.from({ length: 10 }, () => checkIntake(t.app.ctx, app, { verificationToken: undefined, identified: false, action: "feedback", remoteIp: "" })),
    );
    const results = await Promise.allSettled(passes.map((pass) => t.app.ctx.db.kysely.transaction().execute((trx) => pass.commit(trx))));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect(r.reason).toMatchObject({ status: 402, code: "tier_limit_submissions" });
    }
    expect(await used(ws.wsId)).toBe(3);
  });

  it.each([
    [1, 1],
    [3, 3],
    [null, 10],
  ])("lets concurrent first submissions of a month take a quota of %s: %s of 10 are stored", async (quota, taken) => {
    const ws = await workspaceWith({ monthlySubmissionQuota: quota });
    const app = await appRowOf(t.app.ctx, ws.appKey);
    // No usage row exists yet: the ten race to create it and then to count on it.
    const passes = await Promise.all(
      Array.from({ length: 10 }, () => checkIntake(t.app.ctx, app, { verificationToken: undefined, identified: false, action: "feedback", remoteIp: "" })),
    );
    const results = await Promise.allSettled(passes.map((pass) => t.app.ctx.db.kysely.transaction().execute((trx) => pass.commit(trx))));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(taken);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect(r.reason).toMatchObject({ status: 402, code: "tier_limit_submissions" });
    }
    expect(await used(ws.wsId)).toBe(taken);
  });

  it("refuses a month's first submission when the quota drops to zero after its early check, storing no usage row", async () => {
    const ws = await workspaceWith({ monthlySubmissionQuota: 5 });
    const app = await appRowOf(t.app.ctx, ws.appKey);
    const pass = await checkIntake(t.app.ctx, app, { verificationToken: undefined, identified: false, action: "feedback", remoteIp: "" });
    expect((await ws.console.put(`/workspaces/${ws.wsId}`, { monthlySubmissionQuota: 0 })).status).toBe(200);
    await expect(t.app.ctx.db.kysely.transaction().execute((trx) => pass.commit(trx))).rejects.toMatchObject({ status: 402, code: "tier_limit_submissions" });
    const rows = await t.app.ctx.db.kysely.selectFrom("workspaceUsage").select("submissions").where("workspaceId", "=", ws.wsId).execute();
    expect(rows).toEqual([]);
  });

  it("uses no quota when the write transaction rolls back, whether the slot was taken or refused", async () => {
    const ws = await workspaceWith({ monthlySubmissionQuota: 1 });
    const app = await appRowOf(t.app.ctx, ws.appKey);
    const pass = await checkIntake(t.app.ctx, app, { verificationToken: undefined, identified: false, action: "feature-request", remoteIp: "" });
    await expect(
      t.app.ctx.db.kysely.transaction().execute(async (trx) => {
        await pass.commit(trx);
        throw new Error("the insert failed");
      }),
    ).rejects.toThrow("the insert failed");
    expect(await used(ws.wsId)).toBe(0);

    expect((await submit(ws.appKey)).status).toBe(201);
    // Quota full: the commit's refusal rolls back the caller's own write too.
    await expect(
      t.app.ctx.db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable("apps").set({ name: "Renamed by a refused write" }).where("id", "=", app.id).execute();
        await pass.commit(trx);
      }),
    ).rejects.toMatchObject({ status: 402, code: "tier_limit_submissions" });
    expect((await appRowOf(t.app.ctx, ws.appKey)).name).toBe(app.name);
    expect(await used(ws.wsId)).toBe(1);
  });

  it("counts without limit when the quota is null, and applies a quota change at once", async () => {
    const ws = await workspaceWith({});
    // Written directly: the console PUT turns a JSON null quota into 0 today (ajv coerceTypes).
    await t.app.ctx.db.kysely.updateTable("workspaces").set({ monthlySubmissionQuota: null }).where("id", "=", ws.wsId).execute();
    for (let i = 0; i < 5; i++) expect((await submit(ws.appKey)).status).toBe(201);
    expect(await used(ws.wsId)).toBe(5);
    const app = await appRowOf(t.app.ctx, ws.appKey);
    const pass = await checkIntake(t.app.ctx, app, { verificationToken: undefined, identified: false, action: "feedback", remoteIp: "" });
    // The operator lowers the quota between the check and the write: the write is refused.
    await ws.console.put(`/workspaces/${ws.wsId}`, { monthlySubmissionQuota: 5 });
    await expect(t.app.ctx.db.kysely.transaction().execute((trx) => pass.commit(trx))).rejects.toMatchObject({ status: 402 });
    expect(await used(ws.wsId)).toBe(5);
  });

  it("adds the month's spread rows to its usage row, in the count and against the quota", async () => {
    // Proposals to a workspace without a quota count in spread rows (migration 0043); the
    // operator then sets a quota that leaves room for two more.
    const ws = await workspaceWith({});
    const month = usageMonth(t.clock);
    await t.app.ctx.db.kysely
      .insertInto("workspaceUsageSpread")
      .values([3, 7, 11].map((shard) => ({ workspaceId: ws.wsId, month, shard, submissions: 2 })))
      .execute();
    expect(await used(ws.wsId)).toBe(6);
    expect((await ws.console.put(`/workspaces/${ws.wsId}`, { monthlySubmissionQuota: 8 })).status).toBe(200);
    // The month's first write to the usage row, then one that updates it, then a refusal.
    expect((await submit(ws.appKey)).status).toBe(201);
    expect((await submit(ws.appKey)).status).toBe(201);
    expect((await submit(ws.appKey)).status).toBe(402);
    expect(await used(ws.wsId)).toBe(8);
    expect((await ws.console.get(`/workspaces/${ws.wsId}/usage`)).body).toMatchObject({ month, submissions: 8, quota: 8 });
  });

  it("starts every UTC month at zero", async () => {
    const ws = await workspaceWith({ monthlySubmissionQuota: 1 });
    const month = usageMonth(t.clock);
    expect((await submit(ws.appKey)).status).toBe(201);
    expect((await submit(ws.appKey)).status).toBe(402);
    // Jump to the first instant of the next UTC month.
    const now = t.clock.now();
    t.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime());
    expect(usageMonth(t.clock)).not.toBe(month);
    expect(await used(ws.wsId)).toBe(0);
    expect((await submit(ws.appKey)).status).toBe(201);
    expect(await monthlySubmissions(t.app.ctx.db.kysely, ws.wsId, month)).toBe(1);
  });
});

describe("usageMonth", () => {
  it("is the UTC calendar month, whatever the local time zone", () => {
    expect(usageMonth({ now: () => new Date("2026-03-31T23:59:59.999Z") })).toBe("2026-03");
    expect(usageMonth({ now: () => new Date("2026-04-01T00:00:00.000+02:00") })).toBe("2026-03");
    expect(usageMonth({ now: () => new Date("2026-12-31T23:00:00.000-05:00") })).toBe("2027-01");
  });
});
