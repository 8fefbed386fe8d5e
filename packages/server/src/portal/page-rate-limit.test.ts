import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";

// The limiter is in memory whatever the engine, so one engine tells.
describe("a portal page past the visitor's rate limit", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("sqlite", { rateLimits: { ...GENEROUS_RATE_LIMITS, list: { limit: 2, windowSeconds: 60, perIp: 2 } }, demo: false });
  });
  afterAll(() => t.close());

  it("is a page saying when to come back, with Retry-After, and the portal again once the window has passed", async () => {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "limited-portal");
    const open = () => t.app.inject({ url: `/p/${ws.appKey}/requests` });
    expect((await open()).statusCode).toBe(200);
    t.clock.advance(10_000);
    expect((await open()).statusCode).toBe(200);

    const refused = await open();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(refused.headers["retry-after"]).toBe("50");
    expect(refused.body).toContain("<title>Too many requests</title>");
    expect(refused.body).toContain("Please try again in 50 seconds.");
    // Nothing of the app (its name, its script) on a page that served none of it.
    expect(refused.body).not.toContain("portal.js");

    t.clock.advance(50_000);
    const again = await open();
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain("portal.js");
  });
});
