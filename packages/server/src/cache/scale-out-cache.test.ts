import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../app.js";
import { loadConfig, type Config } from "../config.js";
import { openDatabase, type Db } from "../db/database.js";
import type { App } from "../http/types.js";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { FakeClock } from "@tidings/testing/fake-clock";
import { startTcpProxy, type TcpProxy } from "@tidings/testing/tcp-proxy";
import { GENEROUS_RATE_LIMITS, TEST_ADMIN_TOKEN } from "@tidings/testing/test-app";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { testRedisUrl } from "@tidings/testing/test-redis";
import type { RedisCache } from "./redis-cache.js";

const REDIS_URL = await testRedisUrl("shared cache across instances");
const admin = `Bearer ${TEST_ADMIN_TOKEN}`;

/** One server instance: its own connection to the shared database, Redis through `proxy`. */
interface Instance {
  app: App;
  /** The shared cache's log lines. */
  cacheLines: string[];
}

describe.skipIf(REDIS_URL === null).each(testDialects())("the public cache across two instances on %s", (dialect) => {
  const prefix = `test-scale-${randomBytes(4).toString("hex")}:`;
  const clock = new FakeClock();
  let database: TestDatabase;
  let secondDb: Db;
  let proxy: TcpProxy;
  let a: Instance;
  let b: Instance;

  async function instance(db: Db): Promise<Instance> {
    const cacheLines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) {
          const { msg } = JSON.parse(line) as { msg: string };
          if (msg.startsWith("shared cache")) cacheLines.push(msg);
        }
        done();
      },
    });
    const config: Config = {
      ...loadConfig({ DATA_DIR: "/nonexistent-test-data", LOG_LEVEL: "warn" }),
      logLevel: "info",
      adminToken: TEST_ADMIN_TOKEN,
      redisUrl: `redis://${proxy.address}`,
      rateLimits: GENEROUS_RATE_LIMITS,
    };
    const app = await buildApp(config, { db, clock, cachePrefix: prefix, logStream, jobIntervalMs: 0 });
    await app.ready();
    return { app, cacheLines };
  }

  beforeAll(async () => {
    proxy = await startTcpProxy(new URL(REDIS_URL!).host);
    database = await openTestDatabase(dialect);
    secondDb = openDatabase(database.url, database.schema === undefined ? {} : { schema: database.schema });
    a = await instance(database.db);
    b = await instance(secondDb);
  });
  afterAll(async () => {
    await Promise.all([a.app.close(), b.app.close()]);
    await secondDb.destroy();
    await database.cleanup();
    await proxy.close();
    const redis = new Redis(REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  const config = async (on: Instance, appKey: string) => {
    const res = await on.app.inject({ url: `/api/v1/public/config/${appKey}` });
    expect(res.statusCode).toBe(200);
    return res.json() as { name: string; allowAnonymousVote: boolean };
  };
  const list = async (on: Instance, appKey: string) => {
    const res = await on.app.inject({ url: `/api/v1/feature-requests?appKey=${appKey}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { requests: { id: string; title: string; voteCount: number }[] }).requests;
  };

  it("shows a console change of a public setting on A at B's next read", async () => {
    const ws = await createWorkspaceWithApp(a.app, admin, `setting-${dialect}`);
    expect((await config(b, ws.appKey)).allowAnonymousVote).toBe(true);
    expect((await config(b, ws.appKey)).allowAnonymousVote).toBe(true);

    const put = await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { allowAnonymousVote: false });
    expect(put.status).toBe(200);
    expect((await config(b, ws.appKey)).allowAnonymousVote).toBe(false);
  });

  it("shows a vote on A in B's listing, and a proposal approved on A", async () => {
    const ws = await createWorkspaceWithApp(a.app, admin, `votes-${dialect}`);
    await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { moderationPolicy: "all" });
    const proposed = await a.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "alice" }, payload: { appKey: ws.appKey, title: "Dark mode" } });
    expect(proposed.json()).toMatchObject({ pending: true });
    const id = (proposed.json() as { featureRequestId: string }).featureRequestId;
    expect(await list(b, ws.appKey)).toEqual([]);

    expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id}/approve`)).status).toBe(200);
    expect(await list(b, ws.appKey)).toMatchObject([{ id, title: "Dark mode", voteCount: 0 }]);

    const voted = await a.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": "bob" }, payload: {} });
    expect(voted.statusCode).toBe(200);
    expect(await list(b, ws.appKey)).toMatchObject([{ id, voteCount: 1 }]);
  });

  it("reads correctly without Redis, logs the outage once, and caches again once Redis is back", async () => {
    const ws = await createWorkspaceWithApp(a.app, admin, `outage-${dialect}`);
    const c = consoleClient(a.app, admin);
    await c.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { moderationPolicy: "none" });
    const proposed = await a.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "alice" }, payload: { appKey: ws.appKey, title: "Sync" } });
    const id = (proposed.json() as { featureRequestId: string }).featureRequestId;
    expect((await config(b, ws.appKey)).name).toBe("Acme Notes");
    expect(await list(b, ws.appKey)).toMatchObject([{ id, voteCount: 0 }]);

    await proxy.cut();
    await vi.waitFor(() => expect((b.app.ctx.cache as RedisCache).degraded).toBe(true));
    // A console write on A while neither instance can reach Redis: B answers from the database.
    expect((await c.put(`/workspaces/${ws.wsId}/apps/${ws.appId}`, { name: "Renamed offline" })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await config(b, ws.appKey)).name).toBe("Renamed offline");
    expect((await c.put(`/workspaces/${ws.wsId}/apps/${ws.appId}`, { name: "Renamed twice" })).status).toBe(200);
    expect((await config(b, ws.appKey)).name).toBe("Renamed twice");
    expect((await config(a, ws.appKey)).name).toBe("Renamed twice");
    const voted = await a.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": "bob" }, payload: {} });
    expect(voted.statusCode).toBe(200);
    expect(await list(b, ws.appKey)).toMatchObject([{ id, voteCount: 1 }]);
    const down = ["shared cache: Redis unreachable, serving without cache until it is back"];
    expect(b.cacheLines).toEqual(down);
    expect(a.cacheLines).toEqual(down);

    await proxy.restore();
    await vi.waitFor(
      async () => {
        clock.advance(1000);
        await config(b, ws.appKey);
        expect((b.app.ctx.cache as RedisCache).degraded).toBe(false);
      },
      { timeout: 5000, interval: 50 },
    );
    expect(b.cacheLines).toEqual([...down, "shared cache: Redis is back, caching resumed"]);
    // Cached again: a change behind the API's back (no invalidation) is not seen until the TTL.
    expect((await config(b, ws.appKey)).name).toBe("Renamed twice");
    await database.db.kysely.updateTable("apps").set({ name: "Not through the API" }).where("id", "=", ws.appId).execute();
    expect((await config(b, ws.appKey)).name).toBe("Renamed twice");
    clock.advance(30_000);
    expect((await config(b, ws.appKey)).name).toBe("Not through the API");
  });
});
