import { WEBHOOK_EVENT_TYPES } from "@tidings/protocol";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createMailTestApp, type MailTestApp } from "@tidings/testing/changelog-kit";
import { startSmtpTestServer, type SmtpTestServer } from "@tidings/testing/smtp-test-server";
import type { FakeClock } from "@tidings/testing/fake-clock";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { testDialects } from "@tidings/testing/test-database";
import { signAttributes } from "../users/attribute-signature.js";
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from "@tidings/testing/webhook-receiver";
import { parseWebhookAllow } from "./address-guard.js";

const HOUR = 3_600_000;

/** Verifies like a receiver would at the moment of delivery (the app runs on a fake clock). */
function verify(secret: string, hook: ReceivedHook, clock: FakeClock): unknown {
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    vi.setSystemTime(clock.now());
    return new Webhook(secret).verify(hook.body, hook.headers);
  } finally {
    vi.useRealTimers();
  }
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe.each(testDialects())("outbound webhooks on %s", (dialect) => {
  let smtp: SmtpTestServer;
  let t: MailTestApp;
  let receiver: WebhookReceiver;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    receiver = await startWebhookReceiver();
    // Loopback is allowed for the test receivers, and only 127.0.0.1 itself.
    t = await createMailTestApp(dialect, { smtpUrl: smtp.url, webhookAllow: parseWebhookAllow("127.0.0.1/32"), webhookDisableAfter: 2 });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await smtp.close();
  });

  const hooks = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/webhooks`;
  // Each test starts without endpoints, so none of its receivers outlives it in another's run.
  afterEach(async () => {
    for (const endpoint of (await acme.console.get(hooks())).body.webhooks as { id: string }[]) await acme.console.delete(`${hooks()}/${endpoint.id}`);
  });
  const addEndpoint = async (body: Record<string, unknown>) => {
    const res = await acme.console.post(hooks(), body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const deliveries = async (id: string) => (await acme.console.get(`${hooks()}/${id}/deliveries`)).body.deliveries as {
    id: string;
    eventType: string;
    status: string;
    attemptCount: number;
    attempts: { attempt: number; outcome: string; statusCode: number | null; excerpt: string }[];
  }[];
  /** Runs due jobs until nothing new is due now. */
  const tick = async () => {
    await t.app.jobs.tick();
    await t.app.jobs.tick();
  };

  it("sends every event type to a loopback receiver with a valid Standard Webhooks signature", async () => {
    const endpoint = await addEndpoint({ url: `${receiver.url}/all`, events: [...WEBHOOK_EVENT_TYPES] });
    const slack = await startWebhookReceiver();
    const discord = await startWebhookReceiver(() => ({ status: 204 }));
    try {
      await addEndpoint({ url: `${slack.url}/slack`, events: ["request.created", "comment.created"], format: "slack" });
      await addEndpoint({ url: `${discord.url}/discord`, events: ["request.status_changed"], format: "discord" });

      const c = acme.console;
      const create = async (title: string) => (await c.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title, description: "From the team" })).body.id as string;
      const dark = await create("Dark mode");
      const duplicate = await create("Night theme");
      expect((await c.put(`/workspaces/${acme.wsId}/feature-requests/${dark}`, { columnSlug: "planned" })).status).toBe(200);
      const vote = () => t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${dark}/vote`, headers: { "x-user-token": "voter-1" } });
      expect((await vote()).json()).toMatchObject({ voted: true });
      expect((await vote()).json()).toMatchObject({ voted: false });
      const comment = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${dark}/comments`, headers: { "x-user-token": "voter-1" }, payload: { body: "Please!", authorName: "Ann" } });
      expect(comment.statusCode).toBe(201);
      expect((await c.post(`/workspaces/${acme.wsId}/feature-requests/${duplicate}/merge`, { intoId: dark })).status).toBe(200);
      const doomed = await create("Doomed");
      expect((await c.delete(`/workspaces/${acme.wsId}/feature-requests/${doomed}`)).status).toBe(200);
      const feedback = await t.app.inject({ method: "POST", url: "/api/v1/feedback", payload: { appKey: acme.appKey, title: "Crash on save", description: "It crashes", platform: "ios" } });
      expect(feedback.statusCode).toBe(201);
      const release = await c.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "Spring release", body: "**New**", versionLabel: "2.0", linkedRequestIds: [dark], publishNow: true });
      expect(release.status).toBe(201);
      const subscribe = await t.app.inject({ method: "POST", url: `/api/v1/public/apps/${acme.appKey}/changelog/subscribe`, payload: { email: "sub@example.com" } });
      expect(subscribe.statusCode).toBe(201);
      await tick();
      const confirm = (smtp.to("sub@example.com")[0]?.text ?? "").match(/https?:\/\/\S+changelog\/confirm\S*/)?.[0];
      expect((await t.app.inject({ method: "POST", url: pathOf(confirm!), headers: { accept: "application/json" } })).json()).toEqual({ confirmed: true });
      await tick();

      const types = receiver.received.filter((r) => r.path === "/all").map((r) => (JSON.parse(r.body) as { type: string }).type);
      expect(new Set(types)).toEqual(new Set(WEBHOOK_EVENT_TYPES));
      // Two approved creations, one for each of the three requests: Dark mode, Night theme, Doomed.
      expect(types.filter((type) => type === "request.created")).toHaveLength(3);
      for (const hook of receiver.received) {
        const event = verify(endpoint.secret, hook, t.clock) as { id: string; type: string; version: number; app: { key: string } };
        expect(hook.headers["webhook-id"]).toBe(event.id);
        expect(hook.headers["content-type"]).toBe("application/json");
        expect(event).toMatchObject({ version: 1, app: { key: acme.appKey } });
      }
      // A wrong secret or a changed body never verifies.
      const sample = receiver.ofType("vote.added")[0]!;
      expect(() => verify(`whsec_${Buffer.from("x".repeat(24)).toString("base64")}`, sample, t.clock)).toThrow();
      expect(() => verify(endpoint.secret, { ...sample, body: sample.body.replace("Dark", "Dork") }, t.clock)).toThrow();

      const payload = (type: string) => JSON.parse(receiver.ofType(type)[0]!.body) as { data: Record<string, Record<string, unknown>> };
      expect(payload("vote.added").data.request).toMatchObject({ id: dark, title: "Dark mode", voteCount: 1, url: `https://tidings.example/p/${acme.appKey}/requests/${dark}-dark-mode` });
      expect(payload("vote.removed").data.request).toMatchObject({ voteCount: 0 });
      expect(payload("request.status_changed").data).toMatchObject({ request: { status: { name: "Planned" } }, previousStatus: { kind: "pending_review" } });
      expect(payload("request.merged").data).toMatchObject({ request: { id: duplicate, mergedIntoId: dark }, into: { id: dark } });
      expect(payload("request.deleted").data.request).toMatchObject({ id: doomed, title: "Doomed" });
      expect(payload("comment.created").data).toMatchObject({ request: { id: dark }, comment: { body: "Please!", authorName: "Ann", isTeam: false } });
      expect(payload("feedback.submitted").data.feedback).toMatchObject({ title: "Crash on save", platform: "ios" });
      expect(payload("changelog.published").data.entry).toMatchObject({ title: "Spring release", versionLabel: "2.0", linkedRequests: [{ id: dark, title: "Dark mode" }] });
      expect(payload("subscriber.confirmed").data.subscriber).toMatchObject({ email: "sub@example.com", kind: "changelog" });

      // Slack and Discord endpoints get their own message shapes for the events they chose.
      expect(slack.received.map((r) => (JSON.parse(r.body) as { text: string }).text).sort()).toEqual([
        "New comment on Dark mode",
        "New request: Dark mode",
        "New request: Doomed",
        "New request: Night theme",
      ]);
      const [moved] = discord.received.map((r) => JSON.parse(r.body) as { embeds: { title: string; url: string; fields: { name: string; value: string }[] }[] });
      expect(discord.received).toHaveLength(1);
      expect(moved!.embeds[0]).toMatchObject({ title: "Dark mode moved to Planned", url: `https://tidings.example/p/${acme.appKey}/requests/${dark}-dark-mode` });
      expect(moved!.embeds[0]!.fields).toContainEqual({ name: "Votes", value: "0", inline: true });
    } finally {
      await slack.close();
      await discord.close();
      await acme.console.delete(`${hooks()}/${endpoint.id}`);
    }
  });

  it("sends a private board's requests to standard endpoints only, never to a Slack or Discord channel", async () => {
    const standard = await addEndpoint({ url: `${receiver.url}/boards`, events: ["request.created", "comment.created"] });
    const slack = await startWebhookReceiver();
    try {
      await addEndpoint({ url: `${slack.url}/slack`, events: ["request.created", "comment.created"], format: "slack" });
      const c = acme.console;
      const beta = await c.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/boards`, { name: "Beta program", slug: "beta-hooks", visibility: "private" });
      expect(beta.status, JSON.stringify(beta.body)).toBe(201);
      const create = async (title: string) => (await c.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title, description: "From the team" })).body.id as string;
      const open = await create("Public roadmap idea");
      const secret = await create("Secret beta idea");
      expect((await c.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/feature-requests/move`, { boardId: beta.body.id, featureRequestIds: [secret] })).body).toMatchObject({ moved: 1 });
      for (const id of [open, secret]) {
        const comment = await c.post(`/workspaces/${acme.wsId}/feature-requests/${id}/comments`, { body: "Noted" });
        expect(comment.status, JSON.stringify(comment.body)).toBe(201);
      }
      await tick();

      const sent = receiver.received.filter((r) => r.path === "/boards").map((r) => JSON.parse(r.body) as { type: string; data: { request: { title: string; board: Record<string, unknown> } } });
      expect(sent.map((e) => [e.type, e.data.request.title]).sort()).toEqual([
        ["comment.created", "Public roadmap idea"],
        ["comment.created", "Secret beta idea"],
        ["request.created", "Public roadmap idea"],
        ["request.created", "Secret beta idea"],
      ]);
      const onBeta = sent.find((e) => e.type === "comment.created" && e.data.request.title === "Secret beta idea")!;
      expect(onBeta.data.request.board).toEqual({ id: beta.body.id, slug: "beta-hooks", name: "Beta program", visibility: "private" });
      // The request was created on the public default board, then moved: the chat channel heard of
      // its creation, and of nothing on the private board since.
      expect(slack.received.map((r) => (JSON.parse(r.body) as { text: string }).text).sort()).toEqual([
        "New comment on Public roadmap idea",
        "New request: Public roadmap idea",
        "New request: Secret beta idea",
      ]);
      expect((await deliveries(standard.id)).length).toBe(4);
    } finally {
      await slack.close();
    }
  });

  it("carries the voter's and the reporter's company on vote and feedback events", async () => {
    const endpoint = await addEndpoint({ url: `${receiver.url}/companies`, events: ["vote.added", "vote.removed", "feedback.submitted"] });
    const discord = await startWebhookReceiver(() => ({ status: 204 }));
    try {
      await addEndpoint({ url: `${discord.url}/discord`, events: ["vote.added", "feedback.submitted"], format: "discord" });
      const timestamp = Math.floor(t.clock.now().getTime() / 1000);
      const company = { id: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "EUR", plan: "business" };
      const signature = signAttributes(acme.signingSecret, { appKey: acme.appKey, userToken: "customer-1", company, timestamp });
      const reported = await t.app.inject({ method: "PUT", url: `/api/v1/public/apps/${acme.appKey}/user`, headers: { "x-user-token": "customer-1" }, payload: { company, timestamp, signature } });
      expect(reported.statusCode).toBe(200);
      const request = (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title: "SAML" })).body.id as string;
      const vote = (token: string) => t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${request}/vote`, headers: { "x-user-token": token } });
      expect((await vote("customer-1")).json()).toMatchObject({ voted: true });
      expect((await vote("no-company")).json()).toMatchObject({ voted: true });
      const send = (headers: Record<string, string>) => t.app.inject({ method: "POST", url: "/api/v1/feedback", headers, payload: { appKey: acme.appKey, title: "Slow export", platform: "web" } });
      expect((await send({ "x-user-token": "customer-1" })).statusCode).toBe(201);
      expect((await send({})).statusCode).toBe(201);
      await tick();

      const events = receiver.received.filter((r) => r.path === "/companies").map((r) => JSON.parse(r.body) as { type: string; data: { company: unknown } });
      const acmeShape = { id: expect.stringMatching(/^co_/), externalId: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "EUR", plan: "business" };
      // Deliveries run concurrently: their order is not the events' order.
      for (const type of ["vote.added", "feedback.submitted"]) {
        const companies = events.filter((e) => e.type === type).map((e) => e.data.company);
        expect(companies).toHaveLength(2);
        expect(companies).toEqual(expect.arrayContaining([acmeShape, null]));
      }
      const fields = discord.received.map((r) => (JSON.parse(r.body) as { embeds: { fields: { name: string; value: string }[] }[] }).embeds[0]!.fields);
      expect(fields.filter((f) => f.some((x) => x.name === "Company" && x.value === "Acme GmbH (EUR 1200.5/month)"))).toHaveLength(2);
      expect(fields.filter((f) => f.some((x) => x.name === "Company"))).toHaveLength(2);
    } finally {
      await discord.close();
      await acme.console.delete(`${hooks()}/${endpoint.id}`);
    }
  });

  it("sends request.created for a moderated proposal only once it is approved, and nothing for its private life before", async () => {
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { moderationPolicy: "all" });
    const endpoint = await addEndpoint({ url: `${receiver.url}/moderated`, events: ["request.created", "request.status_changed", "comment.created"] });
    const proposed = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "alice" }, payload: { appKey: acme.appKey, title: "Offline mode" } });
    expect(proposed.json().pending).toBe(true);
    const id = proposed.json().featureRequestId as string;
    // The team replies and moves it while it is still pending: receivers hear nothing of it yet.
    await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${id}/comments`, { body: "Looking" });
    await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}`, { columnSlug: "planned" });
    await tick();
    const mine = () => receiver.received.filter((r) => r.path === "/moderated").map((r) => JSON.parse(r.body) as { type: string; data: { request: { title: string } } });
    expect(mine()).toEqual([]);
    expect((await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${id}/approve`)).status).toBe(200);
    await tick();
    expect(mine().map((e) => [e.type, e.data.request.title])).toEqual([["request.created", "Offline mode"]]);
    expect(await deliveries(endpoint.id)).toHaveLength(1);
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { moderationPolicy: "none" });
  });

  it("sends request.created for the proposal of a caller who proposed before, as for a first one", async () => {
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { moderationPolicy: "none" });
    const propose = (title: string) => t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "returning-proposer" }, payload: { appKey: acme.appKey, title } });
    // Before any endpoint: nothing to send, and the caller now has an end user.
    expect((await propose("Widgets on the lock screen")).statusCode).toBe(201);
    await addEndpoint({ url: `${receiver.url}/returning`, events: ["request.created"] });
    expect((await propose("Shortcuts for every screen")).statusCode).toBe(201);
    await tick();
    const sent = receiver.received.filter((r) => r.path === "/returning").map((r) => JSON.parse(r.body) as { type: string; data: { request: { title: string } } });
    expect(sent.map((e) => [e.type, e.data.request.title])).toEqual([["request.created", "Shortcuts for every screen"]]);
  });

  it("retries a receiver that fails twice with backoff and delivers on the third attempt, logging each", async () => {
    const flaky = await startWebhookReceiver((_hook, i) => (i < 2 ? { status: 503, body: "busy, try later" } : { status: 200, body: "thanks" }));
    // The metrics counter of attempts by outcome moves with the log (read as a difference: other tests share the app).
    const attemptsCounted = async () =>
      Object.fromEntries((await t.app.ctx.metrics.webhookDeliveries.get()).values.map((v) => [String(v.labels.outcome), v.value]));
    const countedBefore = await attemptsCounted();
    try {
      const endpoint = await addEndpoint({ url: flaky.url, events: ["request.created"] });
      await acme.console.post(`${hooks()}/${endpoint.id}/test`);
      await tick();
      expect(flaky.received).toHaveLength(1);
      // Not before the backoff (5 s, ±20 %) is over.
      t.clock.advance(3_000);
      await tick();
      expect(flaky.received).toHaveLength(1);
      t.clock.advance(3_000);
      await tick();
      expect(flaky.received).toHaveLength(2);
      t.clock.advance(4 * 60_000);
      await tick();
      expect(flaky.received).toHaveLength(2);
      t.clock.advance(2 * 60_000);
      await tick();
      expect(flaky.received).toHaveLength(3);
      // Same message id on every attempt, so a receiver can drop a duplicate.
      expect(new Set(flaky.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
      const [delivery] = await deliveries(endpoint.id);
      expect(delivery).toMatchObject({ eventType: "webhook.test", status: "delivered", attemptCount: 3 });
      expect(delivery!.attempts.map((a) => [a.attempt, a.outcome, a.statusCode, a.excerpt])).toEqual([
        [1, "http_error", 503, "busy, try later"],
        [2, "http_error", 503, "busy, try later"],
        [3, "success", 200, "thanks"],
      ]);
      const countedAfter = await attemptsCounted();
      expect(countedAfter.http_error! - countedBefore.http_error!).toBe(2);
      expect(countedAfter.success! - countedBefore.success!).toBe(1);
      t.clock.advance(24 * HOUR);
      await tick();
      expect(flaky.received).toHaveLength(3);

      // Redelivery sends the same event again as a fresh run.
      const again = await acme.console.post(`${hooks()}/${endpoint.id}/deliveries/${delivery!.id}/redeliver`);
      expect(again.status).toBe(202);
      await tick();
      expect(flaky.received).toHaveLength(4);
      expect(flaky.received[3]!.headers["webhook-id"]).toBe(flaky.received[0]!.headers["webhook-id"]);
      expect((await deliveries(endpoint.id))[0]).toMatchObject({ status: "delivered", attemptCount: 4 });
      await acme.console.delete(`${hooks()}/${endpoint.id}`);
    } finally {
      await flaky.close();
    }
  });

  it("disables an endpoint after the configured run of failed deliveries and mails the workspace owners", async () => {
    expect((await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "owner@acme.example", role: "owner", displayName: "Olive" })).status).toBe(201);
    expect((await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "admin@acme.example", role: "admin" })).status).toBe(201);
    const down = await startWebhookReceiver(() => ({ status: 500, body: "down" }));
    try {
      const endpoint = await addEndpoint({ url: down.url, events: ["request.created"] });
      const create = (title: string) => acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title });
      await create("First");
      await create("Second");
      // Eight attempts each over about 27 hours.
      for (let i = 0; i < 12; i++) {
        await tick();
        t.clock.advance(12 * HOUR);
      }
      await tick();
      expect(down.received).toHaveLength(16);
      const log = await deliveries(endpoint.id);
      expect(log.map((d) => [d.status, d.attemptCount, d.attempts.length])).toEqual([
        ["failed", 8, 8],
        ["failed", 8, 8],
      ]);
      const listed = await acme.console.get(`${hooks()}/${endpoint.id}`);
      expect(listed.body).toMatchObject({ enabled: false, disabledReason: "failing", consecutiveFailures: 2 });
      const mails = smtp.to("owner@acme.example").filter((m) => m.subject?.includes("webhook endpoint was disabled"));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(down.url);
      expect(smtp.to("admin@acme.example").filter((m) => m.subject?.includes("webhook"))).toHaveLength(0);

      // A disabled endpoint gets nothing more; enabling it again starts a clean run.
      await create("Third");
      await tick();
      expect(down.received).toHaveLength(16);
      const enabled = await acme.console.put(`${hooks()}/${endpoint.id}`, { enabled: true });
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
      await acme.console.delete(`${hooks()}/${endpoint.id}`);
    } finally {
      await down.close();
    }
  });

  it("refuses private, loopback, link-local and metadata addresses at save time and writes nothing", async () => {
    for (const url of [
      "http://10.0.0.5/hook",
      "http://192.168.1.10/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://100.100.100.200/",
      "http://127.0.0.2/",
      "http://[::1]/",
      "http://[fd00:ec2::254]/",
      "http://[::ffff:10.0.0.5]/",
      "http://0.0.0.0/",
      // 10.0.0.1 spelt as one decimal number and in hex: URLs normalise both.
      "http://167772161/",
      "http://0xa.0.0.1/",
      "ftp://example.com/hook",
      "javascript:alert(1)",
      "not a url",
    ]) {
      const res = await acme.console.post(hooks(), { url, events: ["request.created"] });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.details.fieldErrors.url).toHaveLength(1);
    }
    const ok = await acme.console.post(hooks(), { url: receiver.url, events: ["request.created"] });
    const moved = await acme.console.put(`${hooks()}/${ok.body.id}`, { url: "http://169.254.169.254/" });
    expect(moved.status).toBe(400);
    expect((await acme.console.get(hooks())).body.webhooks.map((w: { url: string }) => w.url)).toEqual([`${receiver.url}/`]);
    await acme.console.delete(`${hooks()}/${ok.body.id}`);
  });

  it("refuses a private address at delivery time, through a redirect too", async () => {
    // Listening on every interface, so 127.0.0.2 would reach it if it were not refused.
    const target = await startWebhookReceiver(() => ({ status: 200 }), "0.0.0.0");
    let location = "";
    const redirector = await startWebhookReceiver(() => ({ status: 307, headers: { location } }));
    try {
      const endpoint = await addEndpoint({ url: redirector.url, events: ["request.created"] });
      location = `http://127.0.0.1:${target.port}/followed`;
      await acme.console.post(`${hooks()}/${endpoint.id}/test`);
      await tick();
      expect(target.received.map((r) => r.path)).toEqual(["/followed"]);
      // The same signed body arrives at the end of the redirect.
      expect(target.received[0]!.body).toBe(redirector.received[0]!.body);

      location = `http://127.0.0.2:${target.port}/private`;
      // The log lists newest first: each test event a second after the last.
      t.clock.advance(1000);
      await acme.console.post(`${hooks()}/${endpoint.id}/test`);
      await tick();
      expect(redirector.received).toHaveLength(2);
      expect(target.received).toHaveLength(1);
      const [refused] = await deliveries(endpoint.id);
      expect(refused!.attempts[0]).toMatchObject({ outcome: "refused", statusCode: 307 });

      // An address that changed after the endpoint was saved is refused before connecting.
      await t.database.db.kysely.updateTable("webhookEndpoints").set({ url: `http://127.0.0.2:${target.port}/direct` }).where("id", "=", endpoint.id).execute();
      t.clock.advance(1000);
      await acme.console.post(`${hooks()}/${endpoint.id}/test`);
      await tick();
      expect(target.received).toHaveLength(1);
      expect((await deliveries(endpoint.id))[0]!.attempts[0]).toMatchObject({ outcome: "refused", statusCode: null });
      await acme.console.delete(`${hooks()}/${endpoint.id}`);
    } finally {
      await target.close();
      await redirector.close();
    }
  });

  it("shows the secret only on creation and rotation; a rotated secret signs from then on", async () => {
    const endpoint = await addEndpoint({ url: receiver.url, events: ["request.created"], description: "CRM sync" });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = await acme.console.get(hooks());
    expect(JSON.stringify(listed.body)).not.toContain(endpoint.secret);
    expect(listed.body.webhooks[0]).not.toHaveProperty("secret");
    const rotated = await acme.console.post(`${hooks()}/${endpoint.id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const before = receiver.received.length;
    await acme.console.post(`${hooks()}/${endpoint.id}/test`);
    await tick();
    const hook = receiver.received[before]!;
    expect(verify(rotated.body.secret as string, hook, t.clock)).toMatchObject({ type: "webhook.test" });
    expect(() => verify(endpoint.secret, hook, t.clock)).toThrow();
    expect((await acme.console.delete(`${hooks()}/${endpoint.id}`)).status).toBe(200);
    expect((await acme.console.get(`${hooks()}/${endpoint.id}`)).body.code).toBe("webhook_not_found");
  });

  it("logs an answer with NUL bytes and astral characters cut at the excerpt's end", async () => {
    const odd = await startWebhookReceiver(() => ({ status: 500, body: `\u0000${"😀".repeat(600)}` }));
    try {
      const endpoint = await addEndpoint({ url: odd.url, events: ["vote.added"] });
      await acme.console.post(`${hooks()}/${endpoint.id}/test`);
      await tick();
      const [attempt] = (await deliveries(endpoint.id))[0]!.attempts;
      expect(attempt).toMatchObject({ outcome: "http_error", statusCode: 500 });
      expect(attempt!.excerpt).toBe("😀".repeat(511));
    } finally {
      await odd.close();
    }
  });

  it("lists the webhook routes in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ url: "/api/v1/openapi.json" })).json();
    const base = "/api/v1/console/workspaces/{wsId}/apps/{appId}/webhooks";
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([base, `${base}/{webhookId}`, `${base}/{webhookId}/secret`, `${base}/{webhookId}/test`, `${base}/{webhookId}/deliveries`, `${base}/{webhookId}/deliveries/{deliveryId}/redeliver`]),
    );
    expect(doc.paths[base].post.requestBody.content["application/json"].schema.required).toEqual(["url", "events"]);
  });

  it("refuses bad bodies with 400 and unknown endpoints with 404", async () => {
    const bad = [{ url: receiver.url, events: [] }, { url: receiver.url, events: ["request.exploded"] }, { url: receiver.url, events: ["vote.added"], format: "teams" }, { events: ["vote.added"] }];
    for (const body of bad) expect((await acme.console.post(hooks(), body)).status, JSON.stringify(body)).toBe(400);
    expect((await acme.console.get(hooks())).body.webhooks).toEqual([]);
    const missing = `${hooks()}/whk_00000000000000000000000000`;
    expect((await acme.console.post(`${missing}/test`)).body.code).toBe("webhook_not_found");
    const endpoint = await addEndpoint({ url: receiver.url, events: ["vote.added"] });
    expect((await acme.console.post(`${hooks()}/${endpoint.id}/deliveries/whd_00000000000000000000000000/redeliver`)).body.code).toBe("webhook_delivery_not_found");
  });

  it("queues nothing for a write that rolls back", async () => {
    const endpoint = await addEndpoint({ url: receiver.url, events: ["vote.added"] });
    const before = receiver.received.length;
    // A vote on a request that does not exist fails inside the transaction.
    const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests/fr_00000000000000000000000000/vote", headers: { "x-user-token": "v" } });
    expect(res.statusCode).toBe(404);
    await tick();
    expect(receiver.received.length).toBe(before);
    expect(await deliveries(endpoint.id)).toEqual([]);
    await acme.console.delete(`${hooks()}/${endpoint.id}`);
  });
});
