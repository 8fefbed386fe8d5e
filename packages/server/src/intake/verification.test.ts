import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkIntake } from "./intake.js";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { appRowOf, submitThroughGuard } from "@tidings/testing/intake-kit";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { deadVendorUrl, startVendorServer, type VendorCall } from "@tidings/testing/vendor-server";

const TURNSTILE_REFUSAL = { error: "Human verification (Turnstile) is required", code: "verification_required" };
const PLAIN_REFUSAL = { error: "Human verification is required", code: "verification_required" };

describe.each(testDialects())("vendor human verification on %s", (dialect) => {
  let t: TestApp;
  let vendor: Awaited<ReturnType<typeof startVendorServer>>;
  let slugs = 0;

  beforeAll(async () => {
    vendor = await startVendorServer(() => ({ body: { success: true } }));
    t = await createTestApp(dialect, {
      turnstileVerifyUrl: `${vendor.url}/turnstile`,
      hcaptchaVerifyUrl: `${vendor.url}/hcaptcha`,
      recaptchaVerifyUrl: `${vendor.url}/recaptcha`,
      verificationTimeoutMs: 300,
    });
  });
  afterAll(async () => {
    await t.close();
    await vendor.close();
  });

  /** A fresh workspace whose app uses `provider` with site key `site-…` and secret `secret-…`. */
  async function appWith(provider: string, extra: Record<string, unknown> = {}) {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `vendor-co-${++slugs}`);
    const res = await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, {
      verification: { provider, siteKey: `site-${provider}`, secretKey: `secret-${provider}`, ...extra },
    });
    expect(res.status).toBe(200);
    return ws;
  }
  const submit = (appKey: string, input: Parameters<typeof submitThroughGuard>[2] = {}) =>
    submitThroughGuard(t.app.ctx, appKey, input);
  const callsSince = (before: number): VendorCall[] => vendor.calls.slice(before);

  describe("Turnstile", () => {
    it("accepts a token the vendor vouches for, sending it the secret, the token and the client IP", async () => {
      const ws = await appWith("turnstile");
      vendor.answer(() => ({ body: { success: true, action: "feedback", cdata: ws.appKey } }));
      const before = vendor.calls.length;
      expect(await submit(ws.appKey, { verificationToken: "tok-ok-1", remoteIp: "198.51.100.23" })).toEqual({ status: 201, body: null });
      const [call] = callsSince(before);
      expect(call?.path).toBe("/turnstile");
      expect(Object.fromEntries(call?.form ?? [])).toEqual({ secret: "secret-turnstile", response: "tok-ok-1", remoteip: "198.51.100.23" });
    });

    it("refuses with 403 naming Turnstile when the vendor answers success:false", async () => {
      const ws = await appWith("turnstile");
      vendor.answer(() => ({ body: { success: false, "error-codes": ["invalid-input-response"] } }));
      const res = await submit(ws.appKey, { verificationToken: "tok-bad" });
      expect(res).toEqual({ status: 403, body: TURNSTILE_REFUSAL });
      expect(res.body?.error).toMatch(/turnstile/i);
    });

    it("refuses a token minted for another action", async () => {
      const ws = await appWith("turnstile");
      vendor.answer(() => ({ body: { success: true, action: "feature-request", cdata: ws.appKey } }));
      expect(await submit(ws.appKey, { verificationToken: "tok-action", action: "feedback" })).toEqual({ status: 403, body: TURNSTILE_REFUSAL });
      expect((await submit(ws.appKey, { verificationToken: "tok-action-2", action: "feature-request" })).status).toBe(201);
    });

    it("refuses a token whose cdata names another app", async () => {
      const ws = await appWith("turnstile");
      vendor.answer(() => ({ body: { success: true, action: "feedback", cdata: "app_someone_else" } }));
      expect(await submit(ws.appKey, { verificationToken: "tok-cdata" })).toEqual({ status: 403, body: TURNSTILE_REFUSAL });
    });

    it("refuses without asking the vendor when no token is sent", async () => {
      const ws = await appWith("turnstile");
      const before = vendor.calls.length;
      expect(await submit(ws.appKey, {})).toEqual({ status: 403, body: TURNSTILE_REFUSAL });
      expect(await submit(ws.appKey, { verificationToken: "   " })).toEqual({ status: 403, body: TURNSTILE_REFUSAL });
      expect(callsSince(before)).toEqual([]);
    });

    it("refuses when the vendor does not answer within the timeout", async () => {
      const ws = await appWith("turnstile");
      vendor.answer(() => "hang");
      const started = Date.now();
      expect(await submit(ws.appKey, { verificationToken: "tok-slow" })).toEqual({ status: 403, body: TURNSTILE_REFUSAL });
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it("refuses when the vendor answers with an error status or something unreadable", async () => {
      const ws = await appWith("turnstile");
      vendor.answer(() => ({ status: 500, body: { success: true } }));
      expect((await submit(ws.appKey, { verificationToken: "tok-500" })).status).toBe(403);
      vendor.answer(() => ({ body: "<html>oops</html>" }));
      expect((await submit(ws.appKey, { verificationToken: "tok-html" })).status).toBe(403);
    });

    it("refuses a token that was already spent, without asking the vendor again", async () => {
      const ws = await appWith("turnstile");
      vendor.answer(() => ({ body: { success: true } }));
      expect((await submit(ws.appKey, { verificationToken: "tok-once" })).status).toBe(201);
      const before = vendor.calls.length;
      expect(await submit(ws.appKey, { verificationToken: "tok-once" })).toEqual({ status: 403, body: TURNSTILE_REFUSAL });
      expect(callsSince(before)).toEqual([]);
    });

    it("does not spend the token when the write rolls back", async () => {
      const ws = await appWith("turnstile");
      vendor.answer(() => ({ body: { success: true } }));
      const app = await appRowOf(t.app.ctx, ws.appKey);
      const pass = await checkIntake(t.app.ctx, app, { verificationToken: "tok-rollback", identified: false, action: "feedback", remoteIp: "" });
      await expect(
        t.app.ctx.db.kysely.transaction().execute(async (trx) => {
          await pass.commit(trx);
          throw new Error("the submission insert failed");
        }),
      ).rejects.toThrow("the submission insert failed");
      expect((await submit(ws.appKey, { verificationToken: "tok-rollback" })).status).toBe(201);
    });

    it("lets only one of two concurrent submissions spend the same token", async () => {
      const ws = await appWith("turnstile");
      vendor.answer(() => ({ body: { success: true } }));
      const app = await appRowOf(t.app.ctx, ws.appKey);
      const input = { verificationToken: "tok-race", identified: false, action: "feedback" as const, remoteIp: "" };
      const passes = await Promise.all([checkIntake(t.app.ctx, app, input), checkIntake(t.app.ctx, app, input)]);
      const results = await Promise.allSettled(passes.map((pass) => t.app.ctx.db.kysely.transaction().execute((trx) => pass.commit(trx))));
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.find((r) => r.status === "rejected");
      expect(rejected?.reason).toMatchObject({ status: 403, code: "verification_required" });
    });

    it("refuses everything when the app has no verification secret", async () => {
      const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `vendor-co-${++slugs}`);
      await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { verification: { provider: "turnstile", siteKey: "site" } });
      vendor.answer(() => ({ body: { success: true } }));
      expect(await submit(ws.appKey, { verificationToken: "tok-nosecret" })).toEqual({ status: 403, body: TURNSTILE_REFUSAL });
    });

    it("refuses when the vendor is down", async () => {
      const down = await createTestApp(dialect, { turnstileVerifyUrl: await deadVendorUrl() });
      try {
        const ws = await createWorkspaceWithApp(down.app, down.admin.authorization, "down-co");
        await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, {
          verification: { provider: "turnstile", siteKey: "site", secretKey: "secret" },
        });
        expect(await submitThroughGuard(down.app.ctx, ws.appKey, { verificationToken: "tok-down" })).toEqual({ status: 403, body: TURNSTILE_REFUSAL });
      } finally {
        await down.close();
      }
    });
  });

  describe("hCaptcha", () => {
    it("accepts a token the vendor vouches for and tells it the expected site key", async () => {
      const ws = await appWith("hcaptcha");
      vendor.answer(() => ({ body: { success: true, hostname: "example.com" } }));
      const before = vendor.calls.length;
      expect((await submit(ws.appKey, { verificationToken: "h-ok", remoteIp: "198.51.100.9" })).status).toBe(201);
      const [call] = callsSince(before);
      expect(call?.path).toBe("/hcaptcha");
      expect(Object.fromEntries(call?.form ?? [])).toEqual({
        secret: "secret-hcaptcha",
        response: "h-ok",
        remoteip: "198.51.100.9",
        sitekey: "site-hcaptcha",
      });
    });

    it("refuses with a plain 403 when the vendor says no", async () => {
      const ws = await appWith("hcaptcha");
      vendor.answer(() => ({ body: { success: false, "error-codes": ["invalid-or-already-seen-response"] } }));
      expect(await submit(ws.appKey, { verificationToken: "h-bad" })).toEqual({ status: 403, body: PLAIN_REFUSAL });
    });
  });

  describe("reCAPTCHA", () => {
    it("accepts a v3 token with the right action and a human score", async () => {
      const ws = await appWith("recaptcha");
      vendor.answer(() => ({ body: { success: true, action: "feature-request", score: 0.9 } }));
      const before = vendor.calls.length;
      expect((await submit(ws.appKey, { verificationToken: "r-ok", action: "feature-request" })).status).toBe(201);
      expect(callsSince(before)[0]?.path).toBe("/recaptcha");
    });

    it("refuses success:false, another action, and a bot-like score", async () => {
      const ws = await appWith("recaptcha");
      vendor.answer(() => ({ body: { success: false } }));
      expect(await submit(ws.appKey, { verificationToken: "r-1" })).toEqual({ status: 403, body: PLAIN_REFUSAL });
      vendor.answer(() => ({ body: { success: true, action: "login", score: 0.9 } }));
      expect((await submit(ws.appKey, { verificationToken: "r-2" })).status).toBe(403);
      vendor.answer(() => ({ body: { success: true, action: "feedback", score: 0.1 } }));
      expect((await submit(ws.appKey, { verificationToken: "r-3" })).status).toBe(403);
    });
  });

  describe("when verification applies", () => {
    it("lets an exempt app through without a token and without asking the vendor", async () => {
      const ws = await appWith("turnstile", { exempt: true });
      const before = vendor.calls.length;
      expect((await submit(ws.appKey, {})).status).toBe(201);
      expect(callsSince(before)).toEqual([]);
    });

    it("lets an app without a provider through outside production", async () => {
      const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `vendor-co-${++slugs}`);
      expect(t.app.ctx.config.production).toBe(false);
      expect((await submit(ws.appKey, {})).status).toBe(201);
    });
  });
});
