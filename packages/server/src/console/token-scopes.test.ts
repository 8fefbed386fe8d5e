import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("API token scopes and workspaces on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** A workspace with an app, and a member `email` of it with a token minted by the operator. */
  async function memberToken(slug: string, email: string, grant: Record<string, unknown> = {}) {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, slug);
    const add = await ws.console.post(`/workspaces/${ws.wsId}/members`, { email, role: "admin" });
    const minted = await ws.console.post(`/users/${add.body.member.userId}/tokens`, { name: "assistant", ...grant });
    return { ...ws, userId: add.body.member.userId as string, minted };
  }

  it("makes read-write tokens for every workspace of the user unless told otherwise", async () => {
    const { minted } = await memberToken("default-grant", "dora@example.com");
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ scope: "read-write", workspaceId: null });
  });

  it("lets a read token read and refuses its writes with 403 token_read_only, writing nothing", async () => {
    const ws = await memberToken("read-only", "rita@example.com", { scope: "read" });
    expect(ws.minted.body.scope).toBe("read");
    const rita = consoleClient(t.app, `Bearer ${ws.minted.body.token}`);
    expect((await rita.get(`/workspaces/${ws.wsId}/feature-requests`)).status).toBe(200);
    const refused = await rita.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title: "Written by a reader" });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("token_read_only");
    expect((await rita.post("/tokens", { name: "escalate" })).body.code).toBe("token_read_only");
    const list = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests`);
    expect(list.body.requests.map((r: { title: string }) => r.title)).not.toContain("Written by a reader");
  });

  it("confines a token bound to a workspace to it, though its user belongs to others", async () => {
    const home = await createWorkspaceWithApp(t.app, t.admin.authorization, "bound-home");
    const away = await createWorkspaceWithApp(t.app, t.admin.authorization, "bound-away");
    const add = await home.console.post(`/workspaces/${home.wsId}/members`, { email: "bo@example.com", role: "owner" });
    await away.console.post(`/workspaces/${away.wsId}/members`, { email: "bo@example.com", role: "owner" });
    const minted = await home.console.post(`/users/${add.body.member.userId}/tokens`, { name: "home only", workspaceId: home.wsId });
    expect(minted.body).toMatchObject({ scope: "read-write", workspaceId: home.wsId });
    const bo = consoleClient(t.app, `Bearer ${minted.body.token}`);

    expect((await bo.get(`/workspaces/${home.wsId}/apps`)).status).toBe(200);
    const elsewhere = await bo.get(`/workspaces/${away.wsId}/apps`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe("workspace_not_found");
    expect((await bo.get("/me")).body.workspaces.map((w: { workspace: { id: string } }) => w.workspace.id)).toEqual([home.wsId]);
    expect((await bo.post("/workspaces", { name: "Mine", slug: "bound-new" })).status).toBe(403);

    // What it mints stays in its workspace.
    const child = await bo.post("/tokens", { name: "child" });
    expect(child.body.workspaceId).toBe(home.wsId);
    const escape = await bo.post("/tokens", { name: "escape", workspaceId: away.wsId });
    expect(escape.status).toBe(404);
    expect((await bo.get("/tokens")).body.tokens.map((k: { name: string }) => k.name)).not.toContain("escape");
  });

  it("refuses to bind a token to a workspace its user does not belong to", async () => {
    const ws = await memberToken("bind-mine", "bea@example.com");
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "bind-theirs");
    const res = await ws.console.post(`/users/${ws.userId}/tokens`, { name: "theirs", workspaceId: other.wsId });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("workspace_not_found");
    const bad = await ws.console.post(`/users/${ws.userId}/tokens`, { name: "bad", scope: "write" });
    expect(bad.status).toBe(400);
  });
});
