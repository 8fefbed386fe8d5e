import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { signAttributes } from "./attribute-signature.js";

const TOKEN = "3fa85f64-5717-4562-b3fc-2c963f66afa6";

describe.each(testDialects())("PUT user attributes and GET profile on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(() => t.close());

  const now = () => Math.floor(t.clock.now().getTime() / 1000);
  const put = (payload: Record<string, unknown>, token: string | null = TOKEN, appKey = acme.appKey) =>
    t.app.inject({
      method: "PUT",
      url: `/api/v1/public/apps/${appKey}/user`,
      headers: token === null ? {} : { "x-user-token": token },
      payload,
    });
  const signed = (attrs: { isPaying?: boolean; plan?: string | null; mrr?: number | null; currency?: string }, timestamp = now(), token = TOKEN) => ({
    ...attrs,
    timestamp,
    signature: signAttributes(acme.signingSecret, { appKey: acme.appKey, userToken: token, ...attrs, timestamp }),
  });
  const endUsers = () => t.database.db.kysely.selectFrom("endUsers").selectAll().where("appId", "=", acme.appId).execute();

  it("refuses payment attributes without a signature with 422, and mints nobody", async () => {
    const res = await put({ isPaying: true, plan: "pro" });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: "payment_attributes_require_signature" });
    expect(await put({ plan: null })).toHaveProperty("statusCode", 422);
    expect(await endUsers()).toHaveLength(0);
  });

  it("refuses a forged signature with 401 invalid_signature and a stale one with 401 stale_signature", async () => {
    const forged = { ...signed({ isPaying: true, mrr: 10 }), mrr: 1000 };
    const bad = await put(forged);
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ code: "invalid_signature" });
    const stale = await put(signed({ isPaying: true }, now() - 301));
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toMatchObject({ code: "stale_signature" });
    expect((await put(signed({ isPaying: true }, now() + 301))).json()).toMatchObject({ code: "stale_signature" });
    // A signature for another user's token does not carry over.
    expect((await put(signed({ isPaying: true }), "someone-else")).statusCode).toBe(401);
    expect(await endUsers()).toHaveLength(0);
  });

  it("refuses negative or huge mrr and malformed currency with 400", async () => {
    expect((await put(signed({ mrr: -1 }))).statusCode).toBe(400);
    expect((await put(signed({ mrr: 2_000_000 }))).statusCode).toBe(400);
    expect((await put({ currency: "EURO" })).statusCode).toBe(400);
    expect((await put({ isPaying: null, timestamp: now(), signature: "0".repeat(64) })).statusCode).toBe(400);
    expect(await endUsers()).toHaveLength(0);
  });

  it("stores signed attributes (300 s skew accepted) and answers {ok, updatedAt}", async () => {
    const res = await put(signed({ isPaying: true, plan: "pro", mrr: 299.5, currency: "eur" }, now() - 300));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, updatedAt: t.clock.now().toISOString() });
    const [user] = await endUsers();
    expect(user).toMatchObject({ isPaying: 1, plan: "pro", mrrCents: 29950, currency: "EUR" });
  });

  it("accepts currency-only writes unsigned, and a signed write without currency keeps the stored one", async () => {
    expect((await put({ currency: "gbp" })).statusCode).toBe(200);
    expect((await put(signed({ mrr: null }))).statusCode).toBe(200);
    const [user] = await endUsers();
    expect(user).toMatchObject({ currency: "GBP", mrrCents: null, plan: "pro" });
  });

  it("takes the body userToken over the header, and needs some token", async () => {
    const other = "00000000-0000-4000-8000-000000000001";
    const body = { ...signed({ isPaying: false }, now(), other), userToken: other };
    expect((await put(body, TOKEN)).statusCode).toBe(200);
    expect(await endUsers()).toHaveLength(2);
    expect((await put({ currency: "usd" }, null)).statusCode).toBe(401);
  });

  it("answers 404 for an unknown app", async () => {
    expect((await put({ currency: "usd" }, TOKEN, "app_nope")).statusCode).toBe(404);
  });

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

describe.each(testDialects())("user bucket on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: { ...GENEROUS_RATE_LIMITS, user: { limit: 2, windowSeconds: 60 } } });
  });
  afterAll(() => t.close());

  it("spends the budget on key-less profile reads of real users too", async () => {
    const limited = await createTestApp(dialect, { rateLimits: { ...GENEROUS_RATE_LIMITS, user: { limit: 2, windowSeconds: 60 } } });
    try {
      const acme = await createWorkspaceWithApp(limited.app, limited.admin.authorization);
      const fr = await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title: "Dark mode" });
      const comment = await limited.app.inject({ method: "POST", url: `/api/v1/feature-requests/${fr.body.id}/comments`, headers: { "x-user-token": TOKEN }, payload: { body: "Yes" } });
      const url = `/api/v1/users/${comment.json().authorClerkId}/profile`;
      expect((await limited.app.inject({ url })).statusCode).toBe(200);
      expect((await limited.app.inject({ url })).statusCode).toBe(200);
      const third = await limited.app.inject({ url });
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({ code: "rate_limited" });
      expect(third.headers["retry-after"]).toBeDefined();
    } finally {
      await limited.close();
    }
  });

  it("shares one budget between PUT user and profile reads", async () => {
    await t.app.inject({ url: "/api/v1/users/u_x/profile" });
    await t.app.inject({ method: "PUT", url: "/api/v1/public/apps/app_demo/user", headers: { "x-user-token": "a" }, payload: { currency: "usd" } });
    const res = await t.app.inject({ url: "/api/v1/users/u_x/profile" });
    expect(res.statusCode).toBe(429);
    expect(res.headers["retry-after"]).toBeDefined();
  });
});
