import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { loadConfig, type Config } from "../config.js";
import { openDatabase, type Db } from "../db/database.js";
import type { App } from "../http/types.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { TEST_ADMIN_TOKEN } from "@tidings/testing/test-app";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { enqueueJobs } from "./queue.js";

describe.skipIf(!testDialects().includes("postgres"))("two instances on one PostgreSQL database", () => {
  let database: TestDatabase;
  let workerDb: Db;
  let web: App;
  let worker: App;
  const clock = new FakeClock();
  const received: unknown[] = [];
  let arrived: (() => void)[] = [];

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    // The worker has its own pool and its own LISTEN connection, as another process would.
    workerDb = openDatabase(database.url, { schema: database.schema ?? "" });
    const config: Config = { ...loadConfig({ DATA_DIR: "/nonexistent-test-data", LOG_LEVEL: "silent" }), adminToken: TEST_ADMIN_TOKEN, demo: false };
    // Fake timers that nothing advances: only a notification can start the worker's job.
    web = await buildApp(config, { db: database.db, clock, timers: clock, logger: false, jobIntervalMs: 0 });
    worker = await buildApp(config, { db: workerDb, clock, timers: clock, logger: false, jobIntervalMs: 60_000 });
    await Promise.all([web.ready(), worker.ready()]);
    worker.jobs.handle("probe", async (payload) => {
      received.push(payload);
      for (const done of arrived) done();
      arrived = [];
    });
    await worker.jobs.settled();
  });
  afterAll(async () => {
    await web.close();
    await worker.close();
    await workerDb.destroy();
    await database.cleanup();
  });

  const nextRun = () => new Promise<void>((resolve) => arrived.push(resolve));

  it("starts the work one instance queues on another's runner at once (LISTEN/NOTIFY), with no time passing", async () => {
    const ran = nextRun();
    const before = clock.now().getTime();
    await database.db.kysely.transaction().execute((trx) => enqueueJobs(trx, clock, [{ kind: "probe", dedupeKey: "probe:1", payload: "queued by web" }]));
    await ran;
    expect(received).toEqual(["queued by web"]);
    expect(clock.now().getTime()).toBe(before);
  });
});
