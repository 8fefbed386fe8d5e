import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../app.js";
import { loadConfig, type Config } from "../config.js";
import { migrateToLatest } from "../db/migrate.js";
import { openDatabase } from "../db/database.js";
import { startTcpProxy, type TcpProxy } from "@tidings/testing/tcp-proxy";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { openTestDatabase, testDialects } from "@tidings/testing/test-database";
import { testRedisUrl } from "@tidings/testing/test-redis";

const REDIS_URL = await testRedisUrl("readiness");
const latency = { status: "ok", latencyMs: expect.any(Number) };

describe.each(testDialects())("/readyz on %s", (dialect) => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-ready-"));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("reports the database and storage with their latency", async () => {
    const t = await createTestApp(dialect, { dataDir });
    try {
      const res = await t.app.inject({ url: "/readyz" });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: "ok", role: "all", checks: { database: latency, storage: latency } });
    } finally {
      await t.close();
    }
  });

  it("is degraded, still 200, when uploads cannot be stored", async () => {
    const file = path.join(dataDir, "not-a-folder");
    fs.writeFileSync(file, "");
    const t = await createTestApp(dialect, { dataDir: file });
    try {
      const res = await t.app.inject({ url: "/readyz" });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: "degraded", checks: { database: { status: "ok" }, storage: { status: "fail" } } });
    } finally {
      await t.close();
    }
  });

  it("answers 503 with the failed check when the database is gone", async () => {
    const database = await openTestDatabase(dialect);
    // A handle of the app's own on the same database, closed under it.
    const db = dialect === "sqlite" ? openDatabase(database.url) : openDatabase(database.url, { schema: database.schema ?? "" });
    await migrateToLatest(db, dialect === "sqlite" ? {} : { schema: database.schema ?? "" });
    const config: Config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }), demo: false };
    const app = await buildApp(config, { db, logger: false, jobIntervalMs: 0 });
    try {
      await db.destroy();
      const res = await app.inject({ url: "/readyz" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: "Service unavailable",
        code: "service_unavailable",
        status: "fail",
        role: "all",
        checks: { database: { status: "fail", latencyMs: expect.any(Number) }, storage: latency },
      });
    } finally {
      await app.close();
      await database.cleanup();
    }
  });

  it("is listed in the OpenAPI document", async () => {
    const t = await createTestApp(dialect, { dataDir });
    try {
      const doc = (await t.app.inject({ url: "/api/v1/openapi.json" })).json();
      expect(Object.keys(doc.paths["/readyz"].get.responses)).toEqual(["200", "503", "4XX"]);
      expect(Object.keys(doc.paths["/readyz"].get.responses["200"].content["application/json"].schema.properties)).toEqual(["status", "role", "checks"]);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(REDIS_URL === null)("/readyz with Redis", () => {
  let proxy: TcpProxy;
  let t: TestApp;
  beforeAll(async () => {
    const redis = new URL(REDIS_URL!);
    proxy = await startTcpProxy(`${redis.hostname}:${redis.port || 6379}`);
    t = await createTestApp("sqlite", { redisUrl: `redis://${proxy.address}` });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it("reports Redis, degraded but 200 while it is unreachable, and ok once it is back", async () => {
    const ready = await t.app.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.redis).toEqual(latency);
    expect(ready.json().status).not.toBe("fail");

    await proxy.cut();
    const cut = await t.app.inject({ url: "/readyz" });
    expect(cut.statusCode).toBe(200);
    expect(cut.json()).toMatchObject({ status: "degraded", checks: { database: { status: "ok" }, redis: { status: "fail" } } });
    // Requests are still served: rate limits let them through while Redis is away.
    expect((await t.app.inject({ url: "/api/v1/public/config/app_demo" })).statusCode).toBe(200);

    await proxy.restore();
    await vi.waitFor(async () => expect((await t.app.inject({ url: "/readyz" })).json().checks.redis.status).toBe("ok"), { timeout: 10_000, interval: 100 });
  });
});

describe.each(testDialects())("TIDINGS_ROLE on %s", (dialect) => {
  it("web serves every route and runs no background work", async () => {
    const t = await createTestApp(dialect, { role: "web" }, { jobIntervalMs: 60_000 });
    try {
      expect(t.app.jobs.started).toBe(false);
      expect((await t.app.inject({ url: "/api/v1/public/config/app_demo" })).statusCode).toBe(200);
      expect((await t.app.inject({ url: "/readyz" })).json()).toMatchObject({ role: "web" });
    } finally {
      await t.close();
    }
  });

  it("worker runs the background work and serves only /healthz and /readyz", async () => {
    const t = await createTestApp(dialect, { role: "worker" }, { jobIntervalMs: 60_000 });
    try {
      expect(t.app.jobs.started).toBe(true);
      expect((await t.app.inject({ url: "/healthz" })).statusCode).toBe(200);
      const ready = await t.app.inject({ url: "/readyz" });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ role: "worker", checks: { database: { status: "ok" } } });
      for (const url of ["/api/v1/public/config/app_demo", "/api/v1/openapi.json", "/api/v1/console/workspaces", "/admin/"]) {
        const res = await t.app.inject({ url, headers: t.admin });
        expect({ url, status: res.statusCode, body: res.json() }).toEqual({ url, status: 404, body: { error: "Not found", code: "not_found" } });
      }
    } finally {
      await t.close();
    }
  });

  it("all runs both", async () => {
    const t = await createTestApp(dialect, {}, { jobIntervalMs: 60_000 });
    try {
      expect(t.app.jobs.started).toBe(true);
      expect((await t.app.inject({ url: "/api/v1/public/config/app_demo" })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
