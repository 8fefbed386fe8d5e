import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { userHash } from "../users/identity.js";

describe.each(testDialects())("public columns and versions on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}) => t.app.inject({ url: path, headers });

  it("lists the default columns by position with their wire fields", async () => {
    const res = await get(`/api/v1/public/columns/${acme.appKey}`);
    expect(res.statusCode).toBe(200);
    const { columns } = res.json();
    expect(columns.map((c: { slug: string }) => c.slug)).toEqual(["under-review", "planned", "in-progress", "shipped"]);
    expect(columns[0]).toMatchObject({ kind: "pending_review", isSystem: true, isVisible: true, position: 0, appId: acme.appId });
    expect(columns[3]).toMatchObject({ kind: "done", isSystem: true });
    expect(Object.keys(columns[1]).sort()).toEqual(
      ["appId", "color", "createdAt", "id", "isSystem", "isVisible", "kind", "name", "position", "slug", "updatedAt"].sort(),
    );
  });

  it("shows a hidden column with isVisible false and follows console changes at once", async () => {
    const before = (await get(`/api/v1/public/columns/${acme.appKey}`)).json().columns;
    const planned = before.find((c: { slug: string }) => c.slug === "planned");
    expect((await acme.console.put(`/workspaces/${acme.wsId}/columns/${planned.id}`, { isVisible: false })).status).toBe(200);
    const created = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/columns`, { name: "Later", color: "#123456" });
    expect(created.status).toBe(201);
    const after = (await get(`/api/v1/public/columns/${acme.appKey}`)).json().columns;
    expect(after.find((c: { slug: string }) => c.slug === "planned").isVisible).toBe(false);
    expect(after.at(-1)).toMatchObject({ name: "Later", slug: "later", color: "#123456", kind: "normal", isSystem: false });
  });

  it("lists released versions only", async () => {
    await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/versions`, { label: "2.0", released: true });
    await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/versions`, { label: "2.1", released: false });
    const { versions } = (await get(`/api/v1/public/versions/${acme.appKey}`)).json();
    expect(versions.map((v: { label: string }) => v.label)).toEqual(["2.0"]);
    expect(versions[0]).toMatchObject({ released: true, appId: acme.appId, description: null });
    expect(versions[0].releasedAt).toBe(t.clock.now().toISOString());
  });

  it("refuses anonymous callers with 401 when the anonymous roadmap is off, and admits identified ones", async () => {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "closed-co");
    await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { allowAnonymousRoadmap: false });
    for (const path of [`/api/v1/public/columns/${ws.appKey}`, `/api/v1/public/versions/${ws.appKey}`]) {
      const anonymous = await get(path);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ error: "Sign in is required to view this roadmap", code: "authentication_required" });
      // A token alone is still anonymous.
      expect((await get(path, { "x-user-token": "user-42" })).statusCode).toBe(401);
      const identified = await get(path, { "x-user-token": "user-42", "x-user-hash": userHash(ws.signingSecret, "user-42") });
      expect(identified.statusCode).toBe(200);
      expect(identified.headers["cache-control"]).toContain("private");
    }
  });

  it("refuses a wrong hash with 401 and a malformed token with 400", async () => {
    const wrong = await get(`/api/v1/public/columns/${acme.appKey}`, {
      "x-user-token": "user-42",
      "x-user-hash": userHash("not-the-secret", "user-42"),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe("invalid_user_hash");
    const notHex = await get(`/api/v1/public/columns/${acme.appKey}`, { "x-user-token": "user-42", "x-user-hash": "zz" });
    expect(notHex.json().code).toBe("invalid_user_hash");
    const longToken = await get(`/api/v1/public/columns/${acme.appKey}`, { "x-user-token": "a".repeat(257) });
    expect(longToken.statusCode).toBe(400);
    expect(longToken.json().code).toBe("invalid_user_token");
  });

  it("stops accepting hashes made with a rotated-out secret", async () => {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "rotate-co");
    await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { allowAnonymousRoadmap: false });
    const headers = { "x-user-token": "u-1", "x-user-hash": userHash(ws.signingSecret, "u-1") };
    expect((await get(`/api/v1/public/columns/${ws.appKey}`, headers)).statusCode).toBe(200);
    const rotated = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/signing-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.signingSecret).not.toBe(ws.signingSecret);
    expect((await get(`/api/v1/public/columns/${ws.appKey}`, headers)).statusCode).toBe(401);
    const fresh = { "x-user-token": "u-1", "x-user-hash": userHash(rotated.body.signingSecret, "u-1") };
    expect((await get(`/api/v1/public/columns/${ws.appKey}`, fresh)).statusCode).toBe(200);
  });

  it("answers 404 for unknown apps and 403 for private ones", async () => {
    const unknown = await get("/api/v1/public/columns/app_unknown");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: "App not found", code: "app_not_found" });
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "hidden-co");
    await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { allowPublic: false });
    const hidden = await get(`/api/v1/public/versions/${ws.appKey}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: "App not found", code: "app_not_found" });
  });

  it("serves anonymous reads with shared caching and ETag revalidation", async () => {
    const first = await get(`/api/v1/public/columns/${acme.appKey}`);
    expect(first.headers["cache-control"]).toBe("public, max-age=30");
    expect(first.headers.vary).toContain("X-User-Token");
    const again = await get(`/api/v1/public/columns/${acme.appKey}`, { "if-none-match": first.headers.etag as string });
    expect(again.statusCode).toBe(304);
  });
});
