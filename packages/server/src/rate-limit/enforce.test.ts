import Fastify from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import type { Context } from "../context.js";
import { installErrorHandlers } from "../http/error-responses.js";
import { createMetrics, type Metrics } from "../metrics/metrics.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { enforceRateLimit } from "./enforce.js";
import { MemoryRateLimiter } from "./memory-rate-limiter.js";
import type { RateLimiter } from "./rate-limiter.js";

const TOO_MANY = '{"error":"Too many requests. Please try again shortly.","code":"rate_limited"}';

/** A bare app with one route spending the `search` bucket, for the helper's own behaviour. */
async function searchApp(rateLimiter: RateLimiter, logs: string[] = [], metrics: Metrics = createMetrics({ clock: new FakeClock(), queueDepth: () => Promise.resolve([]), onCollectError: () => {} })) {
  const ctx = { config: loadConfig({}), rateLimiter, metrics } as Pick<Context, "config" | "rateLimiter" | "metrics"> as Context;
  const app = Fastify({ logger: { level: "info", stream: { write: (line: string) => void logs.push(line) } } });
  installErrorHandlers(app);
  app.get("/search", async (request) => {
    await enforceRateLimit(ctx, request, "search", "Too many searches. Please try again shortly.");
    return { ok: true };
  });
  await app.ready();
  return app;
}

describe("enforceRateLimit", () => {
  it("returns 429 with Retry-After and the route's message on the 31st search", async () => {
    const clock = new FakeClock();
    const metrics = createMetrics({ clock, queueDepth: () => Promise.resolve([]), onCollectError: () => {} });
    const app = await searchApp(new MemoryRateLimiter(clock), [], metrics);
    for (let i = 0; i < 30; i++) expect((await app.inject({ url: "/search" })).statusCode).toBe(200);
    clock.advance(20_000);
    const refused = await app.inject({ url: "/search" });
    expect(refused.statusCode).toBe(429);
    // Counted once, under its bucket.
    expect((await metrics.rateLimitRefusals.get()).values).toEqual([{ labels: { bucket: "search" }, value: 1 }]);
    expect(refused.headers["retry-after"]).toBe("40");
    expect(refused.json()).toEqual({ error: "Too many searches. Please try again shortly.", code: "rate_limited" });
    await app.close();
  });

  it("lets requests through and logs when the limiter itself fails", async () => {
    const logs: string[] = [];
    const broken: RateLimiter = { hit: () => Promise.reject(new Error("Connection is closed.")) };
    const app = await searchApp(broken, logs);
    expect((await app.inject({ url: "/search" })).statusCode).toBe(200);
    expect(logs.some((line) => line.includes("rate limiter unavailable") && line.includes("Connection is closed."))).toBe(true);
    await app.close();
  });

  it("logs an outage once, not per request, and says when the limiter is back", async () => {
    const logs: string[] = [];
    let failing = true;
    const flaky: RateLimiter = {
      hit: () => (failing ? Promise.reject(new Error("Connection is closed.")) : Promise.resolve({ allowed: true, remaining: 29, retryAfterSeconds: 0 })),
    };
    const app = await searchApp(flaky, logs);
    for (let i = 0; i < 5; i++) expect((await app.inject({ url: "/search" })).statusCode).toBe(200);
    expect(logs.filter((line) => line.includes("rate limiter unavailable"))).toHaveLength(1);
    failing = false;
    expect((await app.inject({ url: "/search" })).statusCode).toBe(200);
    expect((await app.inject({ url: "/search" })).statusCode).toBe(200);
    expect(logs.filter((line) => line.includes("rate limiter back"))).toHaveLength(1);
    failing = true;
    await app.inject({ url: "/search" });
    expect(logs.filter((line) => line.includes("rate limiter unavailable"))).toHaveLength(2);
    await app.close();
  });
});

// Limits do not depend on the database engine, so these run on SQLite only.
describe("rate limits of the public config and roadmap routes (real defaults)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("sqlite");
  });
  afterAll(() => t.close());
  // Each test starts on fresh windows.
  afterEach(() => t.clock.advance(3_600_000));

  const fetchConfig = (remoteAddress: string, appKey = "app_demo") =>
    t.app.inject({ url: `/api/v1/public/config/${appKey}`, remoteAddress });

  it("answers the 61st config fetch from one IP within a minute with 429, and another IP still passes", async () => {
    expect(t.app.ctx.config.rateLimits.config).toEqual({ limit: 60, windowSeconds: 60, perIp: 3000 });
    for (let i = 0; i < 60; i++) {
      if (i === 30) t.clock.advance(45_000);
      expect((await fetchConfig("203.0.113.7")).statusCode).toBe(200);
    }
    const refused = await fetchConfig("203.0.113.7");
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("15");
    expect(refused.body).toBe(TOO_MANY);
    expect((await fetchConfig("198.51.100.2")).statusCode).toBe(200);

    t.clock.advance(15_000);
    expect((await fetchConfig("203.0.113.7")).statusCode).toBe(200);
  });

  it("spends the budget before the lookup, so probing unknown keys is limited too", async () => {
    for (let i = 0; i < 60; i++) {
      expect((await fetchConfig("203.0.113.8", `app_unknown${i}`)).statusCode).toBe(404);
    }
    const refused = await fetchConfig("203.0.113.8", "app_unknown");
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe(TOO_MANY);
  });

  it("gives columns and versions one shared public-read budget of 60 a minute", async () => {
    for (let i = 0; i < 60; i++) {
      const url = `/api/v1/public/${i % 2 === 0 ? "columns" : "versions"}/app_demo`;
      expect((await t.app.inject({ url, remoteAddress: "203.0.113.9" })).statusCode).toBe(200);
    }
    for (const surface of ["columns", "versions"]) {
      const refused = await t.app.inject({ url: `/api/v1/public/${surface}/app_demo`, remoteAddress: "203.0.113.9" });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["retry-after"]).toBe("60");
      expect(refused.body).toBe(TOO_MANY);
    }
    // The config budget of the same IP is untouched.
    expect((await fetchConfig("203.0.113.9")).statusCode).toBe(200);
  });
});

describe("rate limits behind a trusted proxy", () => {
  it("counts per forwarded client IP, not per proxy", async () => {
    const t = await createTestApp("sqlite", { trustProxy: true });
    try {
      const viaProxy = (client: string) =>
        t.app.inject({ url: "/api/v1/public/config/app_demo", remoteAddress: "10.0.0.1", headers: { "x-forwarded-for": client } });
      for (let i = 0; i < 60; i++) await viaProxy("203.0.113.7");
      expect((await viaProxy("203.0.113.7")).statusCode).toBe(429);
      expect((await viaProxy("198.51.100.2")).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
