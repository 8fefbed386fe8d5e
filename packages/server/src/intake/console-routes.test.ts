import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { submitThroughGuard } from "@tidings/testing/intake-kit";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("console usage endpoint on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "usage-co");
  });
  afterAll(() => t.close());

  it("shows this month's submissions against the quota, with plan and subscription status", async () => {
    await acme.console.put(`/workspaces/${acme.wsId}`, { plan: "pro", subscriptionStatus: "trialing", monthlySubmissionQuota: 50 });
    const usage = () => acme.console.get(`/workspaces/${acme.wsId}/usage`);
    expect((await usage()).body).toEqual({ month: "2026-01", submissions: 0, quota: 50, plan: "pro", subscriptionStatus: "trialing" });
    for (let i = 0; i < 2; i++) expect((await submitThroughGuard(t.app.ctx, acme.appKey)).status).toBe(201);
    expect((await usage()).body).toMatchObject({ month: "2026-01", submissions: 2 });
    t.clock.advance(31 * 24 * 3600_000);
    expect((await usage()).body).toMatchObject({ month: "2026-02", submissions: 0 });
  });

  it("answers any member, and 404 to someone outside the workspace", async () => {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "usage-readers");
    const member = await ws.console.post(`/workspaces/${ws.wsId}/members`, { email: "reader@acme.example", role: "member" });
    expect(member.status).toBe(201);
    const token = await ws.console.post(`/users/${member.body.member.userId}/tokens`, { name: "reader" });
    const reader = consoleClient(t.app, `Bearer ${token.body.token}`);
    const res = await reader.get(`/workspaces/${ws.wsId}/usage`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ submissions: 0, quota: 1000, plan: "free", subscriptionStatus: "active" });

    const outsider = await createWorkspaceWithApp(t.app, t.admin.authorization, "usage-other");
    expect((await reader.get(`/workspaces/${outsider.wsId}/usage`)).status).toBe(404);
    expect((await consoleClient(t.app, "Bearer nope").get(`/workspaces/${ws.wsId}/usage`)).status).toBe(401);
  });
});
