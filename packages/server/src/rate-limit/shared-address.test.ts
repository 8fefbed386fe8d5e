import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testRedisUrl } from "@tidings/testing/test-redis";

const REDIS_URL = await testRedisUrl("rate limits behind one address (Redis)");
const TOO_MANY_VOTES = '{"error":"Too many votes. Please try again shortly.","code":"rate_limited"}';

// The real default limits, on both stores. Redis windows run on Redis's clock, so every scenario
// fits in one window and each uses addresses of its own (Redis outlives the test, other runs share it).
describe.each([
  { store: "memory", redisUrl: null },
  { store: "Redis", redisUrl: REDIS_URL },
])("per-user limits behind one address ($store)", ({ store, redisUrl }) => {
  const skip = store === "Redis" && redisUrl === null;
  const run = randomBytes(2).toString("hex");
  let n = 0;
  const address = () => `2001:db8:${run}::${(++n).toString(16)}`;
  let t: TestApp;
  let requestIds: string[];

  beforeAll(async () => {
    if (skip) return;
    t = await createTestApp("sqlite", { redisUrl });
    const listing = await t.app.inject({ url: "/api/v1/feature-requests?appKey=app_demo", remoteAddress: "192.0.2.250" });
    requestIds = (listing.json() as { requests: { id: string }[] }).requests.map((r) => r.id);
  });
  afterAll(async () => {
    if (skip) return;
    await t.close();
    if (redisUrl === null) return;
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`tidings:rl:*2001:db8:${run}::*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  // The memory store runs on the test's stopped clock; Redis's windows run while the test does.
  const expectRetryAfterAMinute = (header: unknown) => {
    expect(Number(header)).toBeLessThanOrEqual(60);
    expect(Number(header)).toBeGreaterThanOrEqual(store === "memory" ? 60 : 1);
  };
  const list = (remoteAddress: string, token?: string) =>
    t.app.inject({ url: "/api/v1/feature-requests?appKey=app_demo", remoteAddress, headers: token === undefined ? {} : { "x-user-token": token } });
  const vote = (remoteAddress: string, token: string, id: string, method: "POST" | "DELETE" = "POST") =>
    t.app.inject({ method, url: `/api/v1/feature-requests/${id}/vote`, remoteAddress, headers: { "x-user-token": token }, payload: {} });

  // 1,200 requests, a third of them minting a user: slow on a busy machine, hence the long timeout.
  it.skipIf(skip)("lets 300 users with their own tokens behind one address each open the list and vote three times in a minute", { timeout: 180_000 }, async () => {
    expect(t.app.ctx.config.rateLimits.list).toEqual({ limit: 60, windowSeconds: 60, perIp: 3000 });
    expect(t.app.ctx.config.rateLimits.vote).toEqual({ limit: 20, windowSeconds: 60, perIp: 2000 });
    const school = address();
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    for (let user = 0; user < 300; user++) {
      const token = `pupil-${run}-${user}`;
      count((await list(school, token)).statusCode);
      const id = requestIds[user % requestIds.length]!;
      for (const method of ["POST", "DELETE", "POST"] as const) count((await vote(school, token, id, method)).statusCode);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1200 });
  });

  it.skipIf(skip)("refuses one token's 21st vote in a minute while the other users behind its address vote on", async () => {
    const office = address();
    const id = requestIds[0]!;
    for (let i = 0; i < 20; i++) expect((await vote(office, `runaway-${run}`, id, i % 2 === 0 ? "POST" : "DELETE")).statusCode).toBe(200);
    const refused = await vote(office, `runaway-${run}`, id);
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe(TOO_MANY_VOTES);
    expectRetryAfterAMinute(refused.headers["retry-after"]);
    expect((await vote(office, `colleague-${run}`, id)).statusCode).toBe(200);
    // The same token from another address is another caller.
    expect((await vote(address(), `runaway-${run}`, id)).statusCode).toBe(200);
  });

  it.skipIf(skip)("stops a flood that sends a fresh token with every request at the address's cap, and other addresses pass", async () => {
    // A cap of 300 instead of the default 3000 keeps the flood short; the rule is the same.
    const capped = await createTestApp("sqlite", {
      redisUrl,
      rateLimits: { ...t.app.ctx.config.rateLimits, list: { limit: 60, windowSeconds: 60, perIp: 300 } },
    });
    try {
      const flooder = address();
      const flood = (i: number, remoteAddress = flooder) =>
        capped.app.inject({ url: "/api/v1/feature-requests?appKey=app_demo", remoteAddress, headers: { "x-user-token": `rotating-${run}-${i}` } });
      for (let i = 0; i < 300; i++) expect((await flood(i)).statusCode).toBe(200);
      const refused = await flood(300);
      expect(refused.statusCode).toBe(429);
      expectRetryAfterAMinute(refused.headers["retry-after"]);
      expect(refused.json()).toEqual({ error: "Too many requests. Please try again shortly.", code: "rate_limited" });
      expect((await flood(301, address())).statusCode).toBe(200);
    } finally {
      await capped.close();
    }
  });

  it.skipIf(skip)("counts requests without a token as one caller of their address, at the per-user limit", async () => {
    const cafe = address();
    for (let i = 0; i < 60; i++) expect((await list(cafe)).statusCode).toBe(200);
    expect((await list(cafe)).statusCode).toBe(429);
    expect((await list(cafe, `regular-${run}`)).statusCode).toBe(200);
  });

  it.skipIf(skip)("keeps searches at 30 a minute per address, whatever tokens they carry", async () => {
    const library = address();
    const search = (i: number) =>
      t.app.inject({ url: "/api/v1/feature-requests?appKey=app_demo&q=export", remoteAddress: library, headers: { "x-user-token": `reader-${run}-${i}` } });
    for (let i = 0; i < 30; i++) expect((await search(i)).statusCode).toBe(200);
    const refused = await search(30);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: "Too many searches. Please try again shortly.", code: "rate_limited" });
  });
});
