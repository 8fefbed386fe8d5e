import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { signAttributes } from "../users/attribute-signature.js";
import { userHash } from "../users/identity.js";

describe.each(testDialects())("public boards on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    const add = (body: unknown) => acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/boards`, body);
    expect((await add({ name: "Bugs" })).status).toBe(201);
    expect((await add({ name: "Beta", visibility: "private" })).status).toBe(201);
    expect((await add({ name: "Pro lounge", visibility: "private", accessRule: { plans: ["pro", "team"] } })).status).toBe(201);
    expect((await add({ name: "Paying only", visibility: "private", accessRule: { isPaying: true } })).status).toBe(201);
    // Attributes come only through the signed call.
    const now = Math.floor(t.clock.now().getTime() / 1000);
    for (const [token, attrs] of [["pro-user", { plan: "pro", isPaying: false }], ["paying-free", { plan: "free", isPaying: true }]] as const) {
      const res = await t.app.inject({
        method: "PUT",
        url: `/api/v1/public/apps/${acme.appKey}/user`,
        headers: { "x-user-token": token },
        payload: { ...attrs, timestamp: now, signature: signAttributes(acme.signingSecret, { appKey: acme.appKey, userToken: token, ...attrs, timestamp: now }) },
      });
      expect(res.statusCode).toBe(200);
    }
  });
  afterAll(() => t.close());

  const seen = async (headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url: `/api/v1/public/apps/${acme.appKey}/boards`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-cache");
    return (res.json().boards as Array<{ slug: string }>).map((b) => b.slug);
  };
  const signedIn = (token: string) => ({ "x-user-token": token, "x-user-hash": userHash(acme.signingSecret, token) });

  it("shows anonymous and unsigned callers the public boards only, in order, with the public fields", async () => {
    expect(await seen()).toEqual(["feature-requests", "bugs"]);
    // An unsigned token claiming the pro user's identity is not identified.
    expect(await seen({ "x-user-token": "pro-user" })).toEqual(["feature-requests", "bugs"]);
    const res = await t.app.inject({ url: `/api/v1/public/apps/${acme.appKey}/boards` });
    expect(res.json().boards[0]).toEqual({ id: expect.stringMatching(/^brd_/), name: "Feature requests", slug: "feature-requests", description: "", position: 0, visibility: "public", isDefault: true });
  });

  it("shows identified users the private boards whose rule admits them", async () => {
    expect(await seen(signedIn("someone"))).toEqual(["feature-requests", "bugs", "beta"]);
    expect(await seen(signedIn("pro-user"))).toEqual(["feature-requests", "bugs", "beta", "pro-lounge"]);
    expect(await seen(signedIn("paying-free"))).toEqual(["feature-requests", "bugs", "beta", "paying-only"]);
  });

  it("follows a rule change at once", async () => {
    const boards = (await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}/boards`)).body.boards as Array<{ id: string; slug: string }>;
    const lounge = boards.find((b) => b.slug === "pro-lounge")!;
    expect((await acme.console.patch(`/workspaces/${acme.wsId}/boards/${lounge.id}`, { accessRule: { plans: ["team"] } })).status).toBe(200);
    expect(await seen(signedIn("pro-user"))).toEqual(["feature-requests", "bugs", "beta"]);
    expect((await acme.console.patch(`/workspaces/${acme.wsId}/boards/${lounge.id}`, { visibility: "public" })).status).toBe(200);
    expect(await seen()).toEqual(["feature-requests", "bugs", "pro-lounge"]);
  });

  it("answers an unknown or private app like every public route", async () => {
    expect((await t.app.inject({ url: `/api/v1/public/apps/app_nope/boards` })).json()).toMatchObject({ code: "app_not_found" });
  });
});
