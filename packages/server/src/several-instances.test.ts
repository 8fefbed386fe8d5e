import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./app.js";
import { loadConfig, type Config } from "./config.js";
import { openDatabase, type Db } from "./db/database.js";
import type { App } from "./http/types.js";
import { INSTANCE_SECRET_KEYS } from "./instance-secrets.js";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { FakeClock } from "@tidings/testing/fake-clock";
import { GENEROUS_RATE_LIMITS, TEST_ADMIN_TOKEN } from "@tidings/testing/test-app";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { multipartBody } from "@tidings/testing/uploads-kit";

const FILE = Buffer.from("crash log: shared between instances\n");

/** Two instances started at the same moment on one fresh database, sharing one uploads folder. */
describe.each(testDialects())("two instances on one %s database", (dialect) => {
  let database: TestDatabase;
  let secondDb: Db | undefined;
  let dataDir: string;
  let a: App;
  let b: App;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    secondDb = dialect === "postgres" ? openDatabase(database.url, { schema: database.schema ?? "" }) : undefined;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-two-"));
    // altcha-lib checks expiry against the wall clock, so the fake clock starts at real time.
    const clock = new FakeClock(Date.now());
    const config: Config = {
      ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }),
      adminToken: TEST_ADMIN_TOKEN,
      demo: false,
      rateLimits: GENEROUS_RATE_LIMITS,
      altchaCost: 1,
      altchaMaxCounter: 40,
    };
    [a, b] = await Promise.all([
      buildApp(config, { db: database.db, clock, logger: false, jobIntervalMs: 0 }),
      buildApp(config, { db: secondDb ?? database.db, clock, logger: false, jobIntervalMs: 0 }),
    ]);
    await Promise.all([a.ready(), b.ready()]);
    acme = await createWorkspaceWithApp(a, `Bearer ${TEST_ADMIN_TOKEN}`);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await secondDb?.destroy();
    await database.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("agree on every instance secret, made once", async () => {
    const rows = await database.db.kysely.selectFrom("serverSettings").select("key").execute();
    expect(rows.map((row) => row.key).sort()).toEqual([...INSTANCE_SECRET_KEYS].sort());
  });

  it("a download link signed by one instance is served by the other", async () => {
    const body = multipartBody([{ name: "appKey", value: acme.appKey }, { name: "file", filename: "crash.log", contentType: "text/plain", data: FILE }]);
    const upload = await a.inject({ method: "POST", url: "/api/v1/uploads/objects", payload: body.payload, headers: body.headers });
    expect(upload.statusCode).toBe(200);
    const download = await b.inject({ url: upload.json().url as string });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(FILE)).toBe(true);
  });

  it("a verification token spent on one instance is refused on the other", async () => {
    const settings = await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { verification: { provider: "altcha" } });
    expect(settings.status).toBe(200);
    const tokenFrom = async (app: App) => {
      const challenge = (await app.inject({ url: `/api/v1/public/apps/${acme.appKey}/verification/challenge` })).json<Challenge>();
      const solution = await solveChallenge({ challenge, deriveKey });
      return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
    };
    const submit = (app: App, verificationToken: string) =>
      app.inject({ method: "POST", url: "/api/v1/feedback", payload: { appKey: acme.appKey, title: "Both instances", platform: "web", verificationToken } });

    // A challenge made by A is accepted by B (same signing key), then refused by A.
    const token = await tokenFrom(a);
    expect((await submit(b, token)).statusCode).toBe(201);
    const replay = await submit(a, token);
    expect(replay.statusCode).toBe(403);
    expect(replay.json()).toMatchObject({ code: "verification_required" });

    // Spent on both at the same moment: exactly one is accepted.
    const raced = await tokenFrom(b);
    const answers = await Promise.all([submit(a, raced), submit(b, raced)]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 403]);
  });
});
