import { buildApp } from "../../server/src/app.js";
import { loadConfig, type Config } from "../../server/src/config.js";
import type { DialectName } from "../../server/src/db/database.js";
import type { App } from "../../server/src/http/types.js";
import type { Mailer } from "../../server/src/mail/mailer.js";
import { FakeClock } from "./fake-clock.js";
import { GENEROUS_RATE_LIMITS, TEST_ADMIN_TOKEN } from "./test-app.js";
import { openTestDatabase, type TestDatabase } from "./test-database.js";

/** An app whose background jobs run only when the test calls `app.jobs.tick()`. */
export interface MailTestApp {
  app: App;
  clock: FakeClock;
  database: TestDatabase;
  config: Config;
  admin: { authorization: string };
  /** A second app on the same database and clock, as after a restart (the first must be closed). */
  restart(options?: { mailer?: Mailer }): Promise<App>;
  close(): Promise<void>;
}

/** Builds the app on a fresh database of `dialect`, sending mail to `smtpUrl`, with no job timer. */
export async function createMailTestApp(
  dialect: DialectName,
  overrides: Partial<Config>,
  options: { mailer?: Mailer } = {},
): Promise<MailTestApp> {
  const database = await openTestDatabase(dialect);
  const clock = new FakeClock();
  const config: Config = {
    ...loadConfig({ DATA_DIR: "/nonexistent-test-data", LOG_LEVEL: "silent" }),
    adminToken: TEST_ADMIN_TOKEN,
    demo: false,
    publicUrl: "https://tidings.example",
    rateLimits: GENEROUS_RATE_LIMITS,
    ...overrides,
  };
  const build = async (mailer?: Mailer) => {
    const app = await buildApp(config, { db: database.db, clock, logger: false, jobIntervalMs: 0, ...(mailer === undefined ? {} : { mailer }) });
    await app.ready();
    return app;
  };
  const apps: App[] = [await build(options.mailer)];
  return {
    app: apps[0]!,
    clock,
    database,
    config,
    admin: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    restart: async (restartOptions = {}) => {
      const app = await build(restartOptions.mailer);
      apps.push(app);
      return app;
    },
    close: async () => {
      for (const app of apps) await app.close();
      await database.cleanup();
    },
  };
}
