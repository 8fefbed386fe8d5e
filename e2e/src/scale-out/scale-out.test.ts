import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FeedbackClient, uuidV4 } from "@tidings/client";
import { openDatabase } from "@tidings/server";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServerProcess, type ServerProcess } from "@tidings/testing/server-process";
import { createThrowawayDatabase, recipientsOf, type AcceptedMail, sharedServices, startS3Server, startSlowInbox } from "./services.js";
import { RoundRobin } from "./spread.js";

/**
 * Three built server processes on one PostgreSQL database, one Redis and one S3 server, as an
 * operator runs them behind a load balancer (docs/deploy.md). The client spreads its requests.
 */
const ADMIN = "scale-out-admin-token-0123456789abcdef";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
const SUBSCRIBERS = 50;
/** A documentation address (RFC 5737) of our own per run, so its rate-limit counters are ours alone. */
const CLIENT_IP = `192.0.2.${1 + Math.floor(Math.random() * 250)}`;
const SEARCH_IP = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;

const services = await sharedServices();

describe.skipIf(services === null)("three instances on one PostgreSQL, Redis and S3 server", () => {
  let database: Awaited<ReturnType<typeof createThrowawayDatabase>>;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let inbox: Awaited<ReturnType<typeof startSlowInbox>>;
  let instances: ServerProcess[] = [];
  const dataDirs: string[] = [];
  let spread: RoundRobin;

  /** Console API calls through one instance (0-based). */
  const consoleOn = (instance: number) => async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${instances[instance]!.url}/api/v1/console${url}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`console ${method} ${url} on instance ${instance + 1}: ${res.status} ${text}`);
    return (text === "" ? undefined : JSON.parse(text)) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  let wsId: string;
  /** A new app, set up through instance 1 before any instance serves it publicly. */
  const createApp = async (name: string, settings: Record<string, unknown>) => {
    const app = await consoleOn(0)("POST", `/workspaces/${wsId}/apps`, { name });
    await consoleOn(0)("PUT", `/workspaces/${wsId}/apps/${app.appId}/settings`, settings);
    return { appId: app.appId as string, appKey: app.appKey as string };
  };
  const OPEN = { allowAnonymousFeedback: true, allowAnonymousVote: true, allowAnonymousRoadmap: true };
  /** The SDK over the spreading fetch. */
  const clientFor = (appKey: string) => new FeedbackClient({ baseUrl: "http://tidings.invalid", appKey, fetch: spread.fetch, warn: () => undefined });
  /** One raw request through the spreading fetch. */
  const call = (url: string, init: RequestInit = {}) => spread.fetch(`http://tidings.invalid${url}`, init);

  /** Drops the rate-limit counters of this run's client addresses (and only those) from the shared Redis. */
  const forgetRateLimits = async () => {
    const redis = new Redis(services!.redisUrl);
    for (const ip of [CLIENT_IP, SEARCH_IP]) {
      const keys = await redis.keys(`tidings:rl:*:${ip}`);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis.disconnect();
  };

  beforeAll(async () => {
    await forgetRateLimits();
    database = await createThrowawayDatabase(services!.databaseUrl);
    s3 = await startS3Server();
    inbox = await startSlowInbox(100);
    const env = (n: number): Record<string, string> => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tidings-scale-out-${n}-`));
      dataDirs.push(dataDir);
      return {
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        REDIS_URL: services!.redisUrl,
        ...s3.env,
        SMTP_URL: inbox.url,
        // The envelope sender tells the inbox which instance sent a message.
        MAIL_FROM: `Tidings <instance-${n}@scale-out.test>`,
        TIDINGS_ADMIN_TOKEN: ADMIN,
        TIDINGS_DEMO: "0",
        TIDINGS_JOB_LEASE_SECONDS: "3",
        TRUST_PROXY: "loopback",
        TIDINGS_RATE_LIMIT_VOTE: "1000/60",
        ALTCHA_COST: "1",
        ALTCHA_MAX_COUNTER: "50",
      };
    };
    // Started together: they share one migration and agree on the instance secrets.
    instances = await Promise.all([1, 2, 3].map((n) => startServerProcess(env(n), 30_000)));
    spread = new RoundRobin(
      instances.map((i) => i.url),
      CLIENT_IP,
    );
    const ws = await consoleOn(0)("POST", "/workspaces", { name: "Scale", slug: "scale" });
    wsId = ws.workspace.id as string;
  }, 60_000);

  afterAll(async () => {
    for (const instance of instances) {
      if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill("SIGKILL");
      await instance.exited;
    }
    await inbox?.close();
    await s3?.close();
    await database?.drop();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    await forgetRateLimits();
  }, 30_000);

  it("serves an image uploaded through instance 1, attached through instance 2, by its signed link through instance 3", async () => {
    const { appKey } = await createApp("Uploads", OPEN);
    const client = clientFor(appKey);
    await client.getConfig();
    spread.startAt(0);
    const descriptor = await client.uploadAttachment({ file: PNG, filename: "dot.png", mimeType: "image/png" });
    const { submissionId } = await client.submitFeedback({ title: "Crash with a screenshot", details: "See the picture.", platform: "web", attachments: [descriptor] });
    const download = await call(descriptor.url);
    expect(spread.log.slice(-3).map((r) => [r.instance, r.method, r.path.replace(/upl_\w+/, "upl_…")])).toEqual([
      [0, "POST", "/api/v1/uploads/images"],
      [1, "POST", "/api/v1/feedback"],
      [2, "GET", "/api/v1/files/upl_…"],
    ]);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);
    // The file is in the bucket, and instance 3's console lists it on the submission.
    expect(s3.objectCount()).toBe(1);
    const detail = await consoleOn(2)("GET", `/workspaces/${wsId}/submissions/${submissionId}`);
    expect(detail.attachments).toMatchObject([{ filename: "dot.png", mimeType: "image/png", sizeBytes: PNG.length }]);
  });

  it("leaves an exact count after 200 distinct voters spread over the three instances", async () => {
    const { appId, appKey } = await createApp("Votes", OPEN);
    const request = await consoleOn(0)("POST", `/workspaces/${wsId}/feature-requests`, { appId, title: "Dark mode" });
    const client = clientFor(appKey);
    const tokens = Array.from({ length: 200 }, () => uuidV4());
    for (let i = 0; i < tokens.length; i += 25) {
      const answers = await Promise.all(tokens.slice(i, i + 25).map((userToken) => client.toggleVote(request.id as string, { userToken })));
      expect(answers.every((a) => a.voted)).toBe(true);
    }
    const served = new Set(spread.log.filter((r) => r.path.endsWith("/vote")).map((r) => r.instance));
    expect(served).toEqual(new Set([0, 1, 2]));
    for (const instance of [0, 1, 2]) {
      expect((await consoleOn(instance)("GET", `/workspaces/${wsId}/feature-requests/${request.id}`)).voteCount).toBe(200);
    }
  });

  it("shares the per-IP search budget: the 31st search across the instances is refused", async () => {
    const { appKey } = await createApp("Search", OPEN);
    const searcher = new RoundRobin(spread.origins, SEARCH_IP);
    const search = (i: number) => searcher.fetch(`/api/v1/feature-requests?appKey=${appKey}&q=${encodeURIComponent(`theme ${i}`)}`);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await search(i)).status);
    expect(statuses).toEqual(Array(30).fill(200));
    expect(new Set(searcher.log.map((r) => r.instance))).toEqual(new Set([0, 1, 2]));
    for (let i = 0; i < 3; i++) {
      const refused = await search(30 + i);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ code: "rate_limited" });
    }
  });

  it("refuses on another instance a verification token spent on one", async () => {
    const { appKey } = await createApp("Verified", { ...OPEN, verification: { provider: "altcha" } });
    const client = clientFor(appKey);
    const token = await client.createVerificationToken();
    const submit = (instance: number) =>
      fetch(`${instances[instance]!.url}/api/v1/feedback`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": CLIENT_IP },
        body: JSON.stringify({ appKey, title: "Verified once", platform: "web", verificationToken: token }),
      });
    expect((await submit(1)).status).toBe(201);
    const replay = await submit(2);
    expect(replay.status).toBe(403);
    expect(await replay.json()).toMatchObject({ code: "verification_required" });
  });

  it("enforces console settings changed on instance 1 on the next request to instances 2 and 3", async () => {
    const { appId, appKey } = await createApp("Settings", OPEN);
    const config = (instance: number) => fetch(`${instances[instance]!.url}/api/v1/public/config/${appKey}`).then((r) => r.json());
    const listing = (instance: number) => fetch(`${instances[instance]!.url}/api/v1/feature-requests?appKey=${appKey}`, { headers: { "x-forwarded-for": CLIENT_IP } });
    // Instances 2 and 3 have served (and cached) the app's config and its anonymous listing.
    for (const instance of [1, 2]) {
      expect((await config(instance)).sdk.features.featureRequests).toBe(true);
      expect((await listing(instance)).status).toBe(200);
    }
    await consoleOn(0)("PUT", `/workspaces/${wsId}/apps/${appId}/settings`, { allowAnonymousRoadmap: false, sdk: { features: { featureRequests: false } } });
    for (const instance of [1, 2]) {
      expect((await config(instance)).sdk.features.featureRequests).toBe(false);
      const refused = await listing(instance);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: "authentication_required" });
    }
    await consoleOn(0)("PUT", `/workspaces/${wsId}/apps/${appId}/settings`, { allowAnonymousRoadmap: true });
    for (const instance of [1, 2]) expect((await listing(instance)).status).toBe(200);
  });

  // Last: it kills an instance.
  it("publishes a scheduled release once and mails each subscriber once, though an instance is killed mid-blast", async () => {
    const { appId, appKey } = await createApp("Releases", OPEN);
    const emails = Array.from({ length: SUBSCRIBERS }, (_, i) => `reader${i}@scale-out.test`);
    const db = openDatabase(database.url);
    try {
      const at = new Date().toISOString();
      await db.kysely
        .insertInto("emailSubscriptions")
        .values(
          emails.map((email, i) => ({
            id: `esub_${String(i).padStart(26, "0")}`,
            appId,
            kind: "changelog",
            featureRequestId: "",
            email,
            status: "confirmed",
            subscriberTokenHash: null,
            confirmNonce: null,
            confirmSentAt: null,
            confirmedAt: at,
            unsubscribedAt: null,
            notifiedAt: null,
            createdAt: at,
            updatedAt: at,
          })),
        )
        .execute();
    } finally {
      await db.destroy();
    }
    const title = "Scale-out release";
    const aboutRelease = (mails: AcceptedMail[]) => mails.filter((m) => m.mail.subject?.endsWith(`: ${title}`));

    // The tenth message of the blast is in: its sender is killed before the inbox answers it.
    let victim: number | undefined;
    inbox.onBeforeAccept(async (sender, mail) => {
      if (victim !== undefined || !mail.subject?.endsWith(`: ${title}`) || aboutRelease(inbox.accepted).length < 9) return true;
      victim = Number(/^instance-(\d)@/.exec(sender)?.[1]) - 1;
      const killed = instances[victim]!;
      killed.child.kill("SIGKILL");
      await killed.exited;
      return false;
    });

    const entry = await consoleOn(0)("POST", `/workspaces/${wsId}/changelog`, {
      appId,
      title,
      body: "Faster everywhere.",
      scheduledAt: new Date(Date.now() + 1500).toISOString(),
    });
    expect(entry.status).toBe("scheduled");

    // Every instance ticks every 5 s; the held job is free again 3 s after it was claimed.
    await vi.waitFor(() => expect(aboutRelease(inbox.accepted)).toHaveLength(SUBSCRIBERS), { timeout: 40_000, interval: 200 });
    expect(victim).toBeDefined();
    expect(instances[victim!]!.child.signalCode).toBe("SIGKILL");
    const survivor = [0, 1, 2].find((i) => i !== victim)!;
    const published = await consoleOn(survivor)("GET", `/workspaces/${wsId}/changelog/${entry.id}`);
    expect(published).toMatchObject({ status: "published", delivery: { total: SUBSCRIBERS, sent: SUBSCRIBERS, pending: 0, failed: 0 } });
    // Nothing is left to send, so the inbox is final: each subscriber exactly once.
    const got = aboutRelease(inbox.accepted).flatMap((m) => recipientsOf(m.mail));
    expect(got.sort()).toEqual([...emails].sort());
    // The message dropped with the killed instance went out once, from another instance.
    const [lost] = aboutRelease(inbox.dropped);
    const lostTo = recipientsOf(lost!.mail)[0]!;
    const resent = aboutRelease(inbox.accepted).filter((m) => recipientsOf(m.mail).includes(lostTo));
    expect(resent).toHaveLength(1);
    expect(resent[0]!.sender).not.toBe(`instance-${victim! + 1}@scale-out.test`);
    // The survivors list the release once, published once.
    spread.skip(victim!);
    const changelog = (await (await call(`/api/v1/public/apps/${appKey}/changelog`)).json()) as {
      entries: { title: string; publishedAt: string }[];
    };
    expect(changelog.entries.filter((e) => e.title === title)).toEqual([expect.objectContaining({ publishedAt: published.publishedAt })]);
  }, 60_000);
});
