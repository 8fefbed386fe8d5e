import type { Writable } from "node:stream";
import { buildApp } from "../../server/src/app.js";
import { loadConfig, type Config } from "../../server/src/config.js";
import type { DialectName } from "../../server/src/db/database.js";
import type { App } from "../../server/src/http/types.js";
import { RATE_LIMIT_BUCKETS } from "../../server/src/rate-limit/buckets.js";
import type { ObjectStorage } from "../../server/src/storage/object-storage.js";
import { FakeClock } from "./fake-clock.js";
import { openTestDatabase, type TestDatabase } from "./test-database.js";

/** Limits no test reaches, for suites that make many requests from one address. */
export const GENEROUS_RATE_LIMITS: Config["rateLimits"] = Object.fromEntries(
  RATE_LIMIT_BUCKETS.map((bucket) => [bucket, { limit: 1_000_000, windowSeconds: 60 }]),
) as Config["rateLimits"];

/** The bootstrap admin token every test app accepts. */
export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

export interface TestApp {
  app: App;
  clock: FakeClock;
  database: TestDatabase;
  /** `Authorization` header of the bootstrap admin. */
  admin: { authorization: string };
  close(): Promise<void>;
}

/**
 * A ready app on a fresh database of `dialect`, with a fake clock and the demo app seeded
 * unless `config.demo` is false.
 */
export async function createTestApp(
  dialect: DialectName,
  overrides: Partial<Config> = {},
  options: { logStream?: Writable; jobIntervalMs?: number; storage?: ObjectStorage; timeQueries?: boolean; fakeTimers?: boolean } = {},
): Promise<TestApp> {
  const database = await openTestDatabase(dialect, { timeQueries: options.timeQueries ?? false });
  const clock = new FakeClock();
  const config: Config = {
    ...loadConfig({ DATA_DIR: "/nonexistent-test-data", LOG_LEVEL: "silent" }),
    adminToken: TEST_ADMIN_TOKEN,
    ...overrides,
  };
  const app = await buildApp(config, {
    db: database.db,
    clock,
    // The runner's wake-ups fire as the test advances the clock, instead of in real time.
    ...(options.fakeTimers === true ? { timers: clock } : {}),
    ...(options.jobIntervalMs === undefined ? {} : { jobIntervalMs: options.jobIntervalMs }),
    ...(options.storage === undefined ? {} : { storage: options.storage }),
    ...(options.logStream === undefined ? { logger: false } : { logStream: options.logStream }),
  });
  await app.ready();
  return {
    app,
    clock,
    database,
    admin: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    close: async () => {
      await app.close();
      await database.cleanup();
    },
  };
}
