import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("console API on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it("refuses requests without a valid bearer token", async () => {
    for (const headers of [{}, { authorization: "Bearer nope" }, { authorization: "Basic abc" }, { authorization: "Bearer tdg_forged" }]) {
      const res = await t.app.inject({ url: "/api/v1/console/me", headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe("unauthorized");
    }
  });

  it("lets the bootstrap admin see every workspace", async () => {
    const me = await consoleClient(t.app, t.admin.authorization).get("/me");
    expect(me.status).toBe(200);
    expect(me.body.isBootstrapAdmin).toBe(true);
    expect(me.body.user).toBeNull();
    expect(me.body.workspaces.map((w: { workspace: { slug: string } }) => w.workspace.slug)).toContain("demo");
  });

  it("refuses a taken workspace slug with 409 and keeps the first workspace", async () => {
    const admin = consoleClient(t.app, t.admin.authorization);
    expect((await admin.post("/workspaces", { name: "One", slug: "taken" })).status).toBe(201);
    const again = await admin.post("/workspaces", { name: "Two", slug: "taken" });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("slug_taken");
  });

  it("creates members with tokens whose roles the API enforces", async () => {
    const acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "roles-co");
    const add = await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "Mia@Example.com", role: "member" });
    expect(add.status).toBe(201);
    expect(add.body.member).toMatchObject({ email: "mia@example.com", role: "member", workspaceId: acme.wsId });
    const token = await acme.console.post(`/users/${add.body.member.userId}/tokens`, { name: "mia laptop" });
    expect(token.status).toBe(201);
    expect(token.body.token).toMatch(/^tdg_/);
    const mia = consoleClient(t.app, `Bearer ${token.body.token}`);

    const me = await mia.get("/me");
    expect(me.body.user.email).toBe("mia@example.com");
    expect(me.body.workspaces).toHaveLength(1);
    expect(me.body.workspaces[0].membership.role).toBe("member");

    // A member reads but may not configure; the refused write leaves the app unchanged.
    expect((await mia.get(`/workspaces/${acme.wsId}/apps/${acme.appId}`)).status).toBe(200);
    const refused = await mia.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { allowPublic: false });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("capability_required");
    expect((await mia.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/columns`, { name: "Nope" })).status).toBe(403);
    expect((await mia.post(`/workspaces/${acme.wsId}/apps`, { name: "Nope app" })).status).toBe(403);
    expect((await mia.post(`/workspaces/${acme.wsId}/members`, { email: "x@example.com", role: "admin" })).status).toBe(403);
    const app = await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}`);
    expect(app.body.allowPublic).toBe(true);
    const cols = await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}/columns`);
    expect(cols.body.columns.map((c: { name: string }) => c.name)).not.toContain("Nope");

    // Promoted to admin, the same token may configure.
    const promoted = await acme.console.put(`/workspaces/${acme.wsId}/members/${add.body.member.id}`, { role: "admin" });
    expect(promoted.body.role).toBe("admin");
    expect((await mia.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { allowAnonymousVote: false })).status).toBe(200);
    // An admin may not make owners or change plans.
    expect((await mia.put(`/workspaces/${acme.wsId}/members/${add.body.member.id}`, { role: "owner" })).status).toBe(403);
    expect((await mia.put(`/workspaces/${acme.wsId}`, { monthlySubmissionQuota: 1 })).status).toBe(403);
    expect((await mia.put(`/workspaces/${acme.wsId}`, { name: "Acme Inc" })).body.name).toBe("Acme Inc");
  });

  it("hides workspaces from non-members behind 404", async () => {
    const acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "private-ws");
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other-ws");
    const add = await other.console.post(`/workspaces/${other.wsId}/members`, { email: "sam@example.com", role: "owner" });
    const token = await other.console.post(`/users/${add.body.member.userId}/tokens`, { name: "sam" });
    const sam = consoleClient(t.app, `Bearer ${token.body.token}`);
    const res = await sam.get(`/workspaces/${acme.wsId}/apps`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("workspace_not_found");
    // Sam's own tokens: create, list, revoke; a revoked token stops working.
    const second = await sam.post("/tokens", { name: "ci" });
    expect(second.status).toBe(201);
    expect((await sam.get("/tokens")).body.tokens).toHaveLength(2);
    expect((await sam.delete(`/tokens/${second.body.id}`)).status).toBe(200);
    expect((await consoleClient(t.app, `Bearer ${second.body.token}`).get("/me")).status).toBe(401);
  });

  it("keeps at least one owner", async () => {
    const acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "owners-co");
    const owner = await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "olga@example.com", role: "owner" });
    const demote = await acme.console.put(`/workspaces/${acme.wsId}/members/${owner.body.member.id}`, { role: "member" });
    expect(demote.status).toBe(400);
    expect(demote.body.code).toBe("last_owner");
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/members/${owner.body.member.id}`)).body.code).toBe("last_owner");
  });

  it("lets only the operator set plan, subscription status and quota", async () => {
    const acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "billing-co");
    const res = await acme.console.put(`/workspaces/${acme.wsId}`, {
      plan: "pro",
      subscriptionStatus: "past_due",
      monthlySubmissionQuota: 50_000,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ plan: "pro", subscriptionStatus: "past_due", monthlySubmissionQuota: 50_000 });
    const bad = await acme.console.put(`/workspaces/${acme.wsId}`, { subscriptionStatus: "free-forever" });
    expect(bad.status).toBe(400);
    expect((await acme.console.get(`/workspaces/${acme.wsId}`)).body.subscriptionStatus).toBe("past_due");
  });

  it("answers malformed ids with 400 and unknown ones with 404", async () => {
    const admin = consoleClient(t.app, t.admin.authorization);
    expect((await admin.get("/workspaces/not-an-id/apps")).status).toBe(400);
    const unknown = await admin.get("/workspaces/ws_00000000000000000000000000/apps");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("workspace_not_found");
  });
});
