import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

const TOKEN = "3fa85f64-5717-4562-b3fc-2c963f66afa6";

describe.each(testDialects())("GET profile on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(() => t.close());

  const endUsers = () => t.database.db.kysely.selectFrom("endUsers").selectAll().where("appId", "=", acme.appId).execute();

  it("shows an end user's profile by public id with recent visible comments, never the token", async () => {
    const fr = await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title: "Dark mode" });
    expect(fr.status).toBe(201);
    const comment = await t.app.inject({
      method: "POST",
      url: `/api/v1/feature-requests/${fr.body.id}/comments`,
      headers: { "x-user-token": TOKEN },
      payload: { body: "Yes please" },
    });
    expect(comment.statusCode).toBe(201);
    const publicId: string = comment.json().authorClerkId;
    const res = await t.app.inject({ url: `/api/v1/users/${publicId}/profile?appKey=${acme.appKey}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ apps: [], publicApps: [], hideComments: false, profile: { clerkUserId: publicId, hideComments: false, isTeam: false } });
    expect(body.recentComments).toEqual([
      expect.objectContaining({ body: "Yes please", featureRequestId: fr.body.id, featureRequestTitle: "Dark mode", appId: acme.appId, appName: "Acme Notes", workspaceSlug: "acme" }),
    ]);
    expect(res.body).not.toContain(TOKEN);
  });

  it("resolves an end user's id without an app key, and with the matching key in the query or X-App-Key", async () => {
    const { publicId } = await t.database.db.kysely
      .selectFrom("featureRequestComments as cm")
      .innerJoin("endUsers as eu", "eu.id", "cm.endUserId")
      .select("eu.publicId")
      .where("eu.appId", "=", acme.appId)
      .executeTakeFirstOrThrow();
    const keyless = await t.app.inject({ url: `/api/v1/users/${publicId}/profile` });
    expect(keyless.statusCode).toBe(200);
    expect(keyless.json()).toMatchObject({ profile: { clerkUserId: publicId, isTeam: false }, recentComments: [expect.objectContaining({ body: "Yes please" })] });
    expect(keyless.body).not.toContain(TOKEN);
    expect((await t.app.inject({ url: `/api/v1/users/${publicId}/profile?appKey=${acme.appKey}` })).json()).toEqual(keyless.json());
    expect((await t.app.inject({ url: `/api/v1/users/${publicId}/profile`, headers: { "x-app-key": acme.appKey } })).json()).toEqual(keyless.json());
    expect((await t.app.inject({ url: `/api/v1/users/${publicId}/profile?appKey=%20` })).statusCode).toBe(200);
  });

  it("answers exactly {error: User profile not found} for unknown or legacy ids, a mismatched appKey, or the token itself", async () => {
    const [user] = await endUsers();
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other-co");
    for (const [url, headers] of [
      [`/api/v1/users/u_${"0".repeat(32)}/profile?appKey=${acme.appKey}`, {}],
      [`/api/v1/users/u_${"0".repeat(32)}/profile`, {}],
      [`/api/v1/users/${user!.publicId}/profile?appKey=app_unknown`, {}],
      [`/api/v1/users/${user!.publicId}/profile?appKey=${other.appKey}`, {}],
      [`/api/v1/users/${user!.publicId}/profile`, { "x-app-key": other.appKey }],
      [`/api/v1/users/${user!.publicId.toUpperCase()}/profile`, {}],
      [`/api/v1/users/user_2abcDEF123/profile`, {}],
      [`/api/v1/users/user_2abcDEF123/profile?appKey=${acme.appKey}`, {}],
      [`/api/v1/users/${TOKEN}/profile?appKey=${acme.appKey}`, {}],
      [`/api/v1/users/usr_${"0".repeat(26)}/profile`, {}],
    ] as const) {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toBe('{"error":"User profile not found"}');
    }
  });

  it("hides users of a private app exactly like unknown ones, with or without the app key", async () => {
    const [user] = await endUsers();
    const unknown = await t.app.inject({ url: `/api/v1/users/u_${"f".repeat(32)}/profile` });
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { allowPublic: false });
    try {
      for (const url of [`/api/v1/users/${user!.publicId}/profile`, `/api/v1/users/${user!.publicId}/profile?appKey=${acme.appKey}`]) {
        const res = await t.app.inject({ url });
        expect(res.statusCode, url).toBe(unknown.statusCode);
        expect(res.body).toBe(unknown.body);
        expect(res.headers["content-type"]).toBe(unknown.headers["content-type"]);
      }
    } finally {
      await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { allowPublic: true });
    }
  });

  it("gives team members a profile with the public apps they own", async () => {
    const member = await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "owner@acme.example", role: "owner", displayName: "Olive" });
    expect(member.status).toBeLessThan(300);
    const userId: string = member.body.userId ?? member.body.member?.userId ?? member.body.user?.id;
    const res = await t.app.inject({ url: `/api/v1/users/${userId}/profile` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ profile: { displayName: "Olive", isTeam: true }, apps: [{ id: acme.appId, workspaceSlug: "acme", requestCount: 1 }] });
    expect(res.body).not.toContain("owner@acme.example");
  });
});
