import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { signAttributes } from "./attribute-signature.js";

const TOKEN = "3fa85f64-5717-4562-b3fc-2c963f66afa6";

describe.each(testDialects())("PUT user attributes on %s", (dialect) => {
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
