import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { loadConfig, type Config } from "../config.js";
import { openDatabase, type Db } from "../db/database.js";
import type { App } from "../http/types.js";
import { createMailer, type Mailer } from "../mail/mailer.js";
import { startSmtpTestServer, type SmtpTestServer } from "@tidings/testing/smtp-test-server";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { FakeClock } from "@tidings/testing/fake-clock";
import { subscriptionRow } from "@tidings/testing/subscriptions";
import { GENEROUS_RATE_LIMITS, TEST_ADMIN_TOKEN } from "@tidings/testing/test-app";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { JOB_LEASE_MS } from "./job-claims.js";

const SUBSCRIBERS = 12;
const emails = Array.from({ length: SUBSCRIBERS }, (_, i) => `reader${i}@example.com`);

/**
 * A mailer whose `stallAt`-th send never completes until `release` is called, as an instance
 * frozen (or killed) in the middle of a blast; the sends after it go through again.
 */
function stallingMailer(real: Mailer, stallAt: number) {
  let sends = 0;
  let stalled!: () => void;
  const isStalled = new Promise<void>((resolve) => (stalled = resolve));
  let fail!: (error: Error) => void;
  const mailer: Mailer = {
    send: (message) => {
      sends++;
      if (sends !== stallAt) return real.send(message);
      stalled();
      return new Promise<void>((_resolve, reject) => (fail = reject));
    },
    close: () => real.close(),
  };
  return { mailer, isStalled, release: () => fail(new Error("connection reset")) };
}

describe.each(testDialects())("background work with two instances on one %s database", (dialect) => {
  let database: TestDatabase;
  let secondDb: Db | undefined;
  let smtp: SmtpTestServer;
  let clock: FakeClock;
  let a: App;
  let b: App;
  let stall: ReturnType<typeof stallingMailer>;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;

  const mailsAbout = (title: string) => smtp.messages.filter((m) => m.subject?.endsWith(`: ${title}`));
  const recipients = (title: string) => mailsAbout(title).flatMap((m) => (Array.isArray(m.to) ? m.to : [m.to]).flatMap((to) => to?.value.map((v) => v.address) ?? []));
  const schedule = async (title: string) => {
    const created = await acme.console.post(`/workspaces/${acme.wsId}/changelog`, {
      appId: acme.appId,
      title,
      body: "What changed.",
      scheduledAt: new Date(clock.now().getTime() + 60 * 60_000).toISOString(),
    });
    expect(created.status).toBe(201);
    clock.advance(60 * 60_000 + 1000);
    return created.body.id as string;
  };

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    // Each PostgreSQL instance has its own pool; SQLite is one file that one process writes.
    secondDb = dialect === "postgres" ? openDatabase(database.url, { schema: database.schema ?? "" }) : undefined;
    smtp = await startSmtpTestServer();
    clock = new FakeClock();
    const config: Config = {
      ...loadConfig({ DATA_DIR: "/nonexistent-test-data", LOG_LEVEL: "silent" }),
      adminToken: TEST_ADMIN_TOKEN,
      demo: false,
      publicUrl: "https://tidings.example",
      rateLimits: GENEROUS_RATE_LIMITS,
      smtpUrl: smtp.url,
    };
    const real = createMailer({ smtpUrl: smtp.url, from: config.mailFrom, dataDir: config.dataDir }, Fastify({ logger: false }).log);
    stall = stallingMailer(real, Number.POSITIVE_INFINITY);
    const stallable: Mailer = { send: (message) => stall.mailer.send(message), close: () => real.close() };
    [a, b] = await Promise.all([
      buildApp(config, { db: database.db, clock, logger: false, jobIntervalMs: 0, mailer: stallable }),
      buildApp(config, { db: secondDb ?? database.db, clock, logger: false, jobIntervalMs: 0 }),
    ]);
    await Promise.all([a.ready(), b.ready()]);
    acme = await createWorkspaceWithApp(a, `Bearer ${TEST_ADMIN_TOKEN}`);
    const at = clock.now().toISOString();
    await database.db.kysely
      .insertInto("emailSubscriptions")
      .values(emails.map((email, i) => subscriptionRow(i, acme.appId, email, "confirmed", at)))
      .execute();
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await secondDb?.destroy();
    await smtp.close();
    await database.cleanup();
  });

  it("publishes a scheduled release once and mails each subscriber once when both tick at the same moment", async () => {
    const id = await schedule("Release one");
    const publishedAt = clock.now().toISOString();
    await Promise.all([a.jobs.tick(), b.jobs.tick(), a.jobs.tick(), b.jobs.tick()]);
    expect(recipients("Release one").sort()).toEqual([...emails].sort());
    const entry = await acme.console.get(`/workspaces/${acme.wsId}/changelog/${id}`);
    expect(entry.body).toMatchObject({ status: "published", publishedAt });
    await Promise.all([a.jobs.tick(), b.jobs.tick()]);
    expect(mailsAbout("Release one")).toHaveLength(SUBSCRIBERS);
  });

  it("goes on with a blast at once when one instance stalls mid-way, and mails no one twice when it comes back", async () => {
    stall = stallingMailer(stall.mailer, 3);
    await schedule("Release two");
    // Instance A publishes, mails two readers, then hangs on the third send.
    const stuck = a.jobs.tick();
    await stall.isStalled;
    expect(mailsAbout("Release two")).toHaveLength(2);
    // Instance B does not wait for A: it sends everything but the job A holds.
    await b.jobs.tick();
    expect(mailsAbout("Release two")).toHaveLength(SUBSCRIBERS - 1);
    // Once A's lease has run out, B sends the last one too.
    clock.advance(JOB_LEASE_MS + 1000);
    await b.jobs.tick();
    expect(mailsAbout("Release two")).toHaveLength(SUBSCRIBERS);
    // A wakes up (its send failed): nothing of the blast is left for it.
    stall.release();
    await stuck;
    await Promise.all([a.jobs.tick(), b.jobs.tick()]);
    expect(recipients("Release two").sort()).toEqual([...emails].sort());
  });

  it("asks each ship-notify voter to confirm once and mails each once when the request ships", async () => {
    const voters = ["ann", "bo", "cy", "dee", "eve"].map((name) => `${name}@example.com`);
    const request = (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title: "Widgets", columnSlug: "planned" })).body.id as string;
    for (const [i, email] of voters.entries()) {
      const app = i % 2 === 0 ? a : b;
      const res = await app.inject({ method: "POST", url: `/api/v1/feature-requests/${request}/vote`, headers: { "x-user-token": `voter-${i}` }, payload: { shipNotifyEmail: email } });
      expect(res.statusCode).toBe(200);
    }
    await Promise.all([a.jobs.tick(), b.jobs.tick()]);
    const confirmations = (email: string) => smtp.to(email).filter((m) => m.subject?.startsWith("Confirm ship notifications"));
    for (const email of voters) {
      const mails = confirmations(email);
      expect({ email, mails: mails.length }).toEqual({ email, mails: 1 });
      const link = (mails[0]?.text ?? "").match(/https?:\/\/\S+/g)?.find((l) => l.includes("/ship-notifications/confirm")) ?? "";
      const url = new URL(link);
      expect((await b.inject({ method: "POST", url: `${url.pathname}${url.search}` })).json()).toEqual({ confirmed: true });
    }
    expect((await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${request}`, { columnSlug: "shipped" })).status).toBe(200);
    await Promise.all([a.jobs.tick(), b.jobs.tick(), a.jobs.tick(), b.jobs.tick()]);
    for (const email of voters) {
      expect({ email, shipped: smtp.to(email).filter((m) => m.subject?.startsWith("Shipped in")).length }).toEqual({ email, shipped: 1 });
    }
  });
});
