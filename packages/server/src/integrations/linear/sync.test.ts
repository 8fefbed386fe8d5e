import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMailTestApp, type MailTestApp } from "@tidings/testing/changelog-kit";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { linearDeliveryHeaders, linearIssueStateChanged, rateLimitedReply, startLinearServer, type LinearServer } from "@tidings/testing/linear-server";
import { startSmtpTestServer, type SmtpTestServer } from "@tidings/testing/smtp-test-server";
import { signTestSsoToken } from "@tidings/testing/sso-tokens";
import { testDialects } from "@tidings/testing/test-database";
import { DEMAND_END, DEMAND_START } from "../demand-block.js";
import { DIGEST_WINDOW_MS } from "../../feature-requests/notices.js";
import { parseWebhookAllow } from "../../webhooks/address-guard.js";

const API_KEY = "lin_api_0test0key0for0the0linear0sync0000";
const TEAM = "team-eng";
const SECRET = "lin_wh_signing_secret_for_tests";

describe.each(testDialects())("Linear sync on %s", (dialect) => {
  let smtp: SmtpTestServer;
  let linear: LinearServer;
  let t: MailTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  let connectionId: string;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    linear = await startLinearServer({ apiKey: API_KEY, teamId: TEAM, teamKey: "ENG" });
    t = await createMailTestApp(dialect, { smtpUrl: smtp.url, webhookAllow: parseWebhookAllow("127.0.0.1/32,::1/128") });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    expect((await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "owner@acme.example", role: "owner", displayName: "Olive" })).status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
    await linear.close();
    await smtp.close();
  });

  const connection = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/linear`;
  beforeEach(async () => {
    linear.allow(API_KEY);
    await acme.console.delete(connection());
    const res = await acme.console.post(connection(), { teamId: TEAM, apiKey: API_KEY, webhookSecret: SECRET, apiUrl: linear.url, canceledColumn: "under-review" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    connectionId = res.body.id;
    linear.calls.length = 0;
    t.clock.advance(60_000 - (t.clock.now().getTime() % 60_000));
  });

  const newRequest = async (title: string) =>
    (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title, description: "Customers ask for it.", columnSlug: "under-review" })).body.id as string;
  const request = async (id: string) => (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}`)).body as { columnSlug: string | null; events: { type: string; actor: string }[] };
  const createIssue = async (id: string) => {
    const res = await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${id}/linear/issue`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return linear.issues.get(res.body.issueId as string)!;
  };
  const vote = async (id: string, token: string) => expect((await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token }, payload: {} })).statusCode).toBe(200);
  const deliver = (payload: Record<string, unknown>, options: { deliveryId?: string; secret?: string } = {}) => {
    const body = JSON.stringify(payload);
    return t.app.inject({ method: "POST", url: `/api/v1/integrations/linear/${connectionId}/webhook`, headers: linearDeliveryHeaders(options.secret ?? SECRET, body, options.deliveryId), payload: body });
  };
  const tick = async () => {
    await t.app.jobs.tick();
    await t.app.jobs.tick();
  };
  const now = () => t.clock.now().getTime();

  it("shows the connection without its key or secret, with the default state mapping", async () => {
    const read = (await acme.console.get(connection())).body;
    expect(read).toMatchObject({ teamId: TEAM, keyHint: API_KEY.slice(-4), status: "active", mapping: { completed: { slug: "shipped" }, started: { slug: "in-progress" }, canceled: { slug: "under-review" } } });
    expect(read.webhookUrl).toContain(`/api/v1/integrations/linear/${connectionId}/webhook`);
    expect(JSON.stringify(read)).not.toContain(API_KEY);
    expect(JSON.stringify(read)).not.toContain(SECRET);
    expect((await acme.console.post(connection(), { teamId: TEAM, apiKey: API_KEY, webhookSecret: SECRET, apiUrl: linear.url })).body.code).toBe("linear_already_connected");
  });

  it("creates an issue from a request with issueCreate, a link back and the demand block", async () => {
    const id = await newRequest("Dark mode");
    const issue = await createIssue(id);
    expect(linear.callsTo("createIssue")).toHaveLength(1);
    expect(linear.callsTo("createIssue")[0]!.variables.input).toMatchObject({ teamId: TEAM, title: "Dark mode" });
    expect(linear.callsTo("createIssue")[0]!.authorization).toBe(API_KEY);
    expect(issue.description).toContain("Customers ask for it.");
    expect(issue.description).toContain(`${DEMAND_START}`);
    expect(issue.description).toContain("| 0 | 0 | 0 |");
    const link = (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}/linear`)).body;
    expect(link).toMatchObject({ issueIdentifier: issue.identifier, issueTitle: "Dark mode", syncError: null });
    expect((await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${id}/linear/issue`, {})).body.code).toBe("linear_already_linked");
  });

  it("links an existing issue by identifier or URL, writes its block keeping the team's text, and unlinks taking the block out", async () => {
    const existing = linear.addIssue({ title: "Export to CSV", description: "Engineering notes stay." });
    const id = await newRequest("CSV export");
    const bad = await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}/linear`, { issue: "not an issue" });
    expect([bad.status, bad.body.code]).toEqual([404, "linear_issue_not_found"]);
    const missing = await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}/linear`, { issue: "ENG-999" });
    expect([missing.status, missing.body.code]).toEqual([404, "linear_issue_not_found"]);
    const linked = await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}/linear`, { issue: `https://linear.app/acme/issue/${existing.identifier.toLowerCase()}/export-to-csv` });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(linked.body).toMatchObject({ issueId: existing.id, issueIdentifier: existing.identifier });
    await tick();
    expect(linear.callsTo("updateIssue")).toHaveLength(1);
    expect(existing.description).toMatch(/^Engineering notes stay\.\n\n<!-- tidings:demand:start -->/);
    expect(existing.description).toContain(DEMAND_END);

    expect((await acme.console.delete(`/workspaces/${acme.wsId}/feature-requests/${id}/linear`)).status).toBe(200);
    await tick();
    expect(existing.description).toBe("Engineering notes stay.");
    expect((await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}/linear`)).body.code).toBe("linear_link_not_found");
  });

  it("moves a request to Shipped when its issue is completed, and its followers hear it", async () => {
    const id = await newRequest("Offline mode");
    const ada = { "x-sso-token": await signTestSsoToken(acme.signingSecret, acme.appKey, t.clock.now(), { sub: "ada", email: "ada@example.com", name: "Ada" }) };
    expect((await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/subscription`, headers: ada, payload: {} })).statusCode).toBe(200);
    const issue = await createIssue(id);

    const started = await deliver(linearIssueStateChanged(issue, "started", now()));
    expect([started.statusCode, started.json()]).toEqual([202, { duplicate: false, queued: true }]);
    await tick();
    expect((await request(id)).columnSlug).toBe("in-progress");

    expect((await deliver(linearIssueStateChanged(issue, "completed", now()))).statusCode).toBe(202);
    await tick();
    const moved = await request(id);
    expect(moved.columnSlug).toBe("shipped");
    expect(moved.events.filter((e) => e.type === "shipped").map((e) => e.actor)).toEqual(["integration:linear"]);
    expect((await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}/linear`)).body.issueState).toBe("completed");

    t.clock.advance(DIGEST_WINDOW_MS - (now() % DIGEST_WINDOW_MS));
    await tick();
    const digests = smtp.to("ada@example.com").filter((m) => m.subject?.includes("Offline mode"));
    expect(digests).toHaveLength(1);
    expect(digests[0]!.text).toContain("Shipped");

    // Canceled goes to the mapped column.
    await deliver(linearIssueStateChanged(issue, "canceled", now()));
    await tick();
    expect((await request(id)).columnSlug).toBe("under-review");
  });

  it("ignores a replayed delivery, other teams' issues and other events", async () => {
    const id = await newRequest("Widgets");
    const issue = await createIssue(id);
    const first = await deliver(linearIssueStateChanged(issue, "completed", now()), { deliveryId: "l-1" });
    expect(first.json()).toEqual({ duplicate: false, queued: true });
    await tick();
    expect((await request(id)).columnSlug).toBe("shipped");
    expect((await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}`, { columnSlug: "planned" })).status).toBe(200);
    const replay = await deliver(linearIssueStateChanged(issue, "completed", now()), { deliveryId: "l-1" });
    expect([replay.statusCode, replay.json()]).toEqual([202, { duplicate: true, queued: false }]);
    expect((await deliver(linearIssueStateChanged({ ...issue, teamId: "team-other" }, "completed", now()))).json()).toEqual({ duplicate: false, queued: false });
    expect((await deliver({ action: "create", type: "Comment", data: { id: "c1" }, webhookTimestamp: now() })).json()).toEqual({ duplicate: false, queued: false });
    await tick();
    expect((await request(id)).columnSlug).toBe("planned");
  });

  it("refuses a forged signature, a tampered body and a stale timestamp with 401 and writes nothing", async () => {
    const id = await newRequest("Forged");
    const issue = await createIssue(id);
    const jobs = async () => (await t.database.db.kysely.selectFrom("jobs").select("id").execute()).length;
    const before = await jobs();
    const forged = await deliver(linearIssueStateChanged(issue, "completed", now()), { secret: "not-the-secret" });
    expect([forged.statusCode, forged.json().code]).toEqual([401, "invalid_webhook_signature"]);
    const body = JSON.stringify(linearIssueStateChanged(issue, "completed", now()));
    const tampered = await t.app.inject({ method: "POST", url: `/api/v1/integrations/linear/${connectionId}/webhook`, headers: linearDeliveryHeaders(SECRET, body), payload: body.replace('"completed"', '"started"') });
    expect(tampered.statusCode).toBe(401);
    const stale = await deliver(linearIssueStateChanged(issue, "completed", now() - 61_000));
    expect([stale.statusCode, stale.json().code]).toEqual([401, "invalid_webhook_signature"]);
    const unsigned = linearDeliveryHeaders(SECRET, body);
    delete unsigned["linear-signature"];
    expect((await t.app.inject({ method: "POST", url: `/api/v1/integrations/linear/${connectionId}/webhook`, headers: unsigned, payload: body })).statusCode).toBe(401);
    await tick();
    expect((await request(id)).columnSlug).toBe("under-review");
    expect(await t.database.db.kysely.selectFrom("trackerWebhookDeliveries").selectAll().where("connectionId", "=", connectionId).execute()).toEqual([]);
    expect(await jobs()).toBe(before);
  });

  it("writes the demand block at most once a minute per issue under a vote storm, and waits out rate limits", async () => {
    const id = await newRequest("Storm");
    const issue = linear.addIssue({ title: "Storm", description: "Notes." });
    expect((await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}/linear`, { issue: issue.identifier })).status).toBe(201);
    await tick();
    expect(linear.callsTo("updateIssue")).toHaveLength(1);
    const start = now();
    for (let i = 0; i < 45; i++) {
      t.clock.advance(1_000);
      await vote(id, `storm-${i}`);
      await tick();
    }
    expect(linear.callsTo("updateIssue")).toHaveLength(1);
    t.clock.advance(start + 60_000 - now());
    await tick();
    expect(linear.callsTo("updateIssue")).toHaveLength(2);
    expect(issue.description).toContain("| 45 | 0 | 0 |");

    // A RATELIMITED answer (HTTP 400), then a 429 with retry-after: the write waits, then lands.
    await vote(id, "storm-limited");
    t.clock.advance(60_000);
    linear.answerNext(rateLimitedReply());
    await tick();
    expect(linear.callsTo("updateIssue")).toHaveLength(2);
    expect((await acme.console.get(connection())).body.pausedUntil).toBe(new Date(now() + 60_000).toISOString());
    t.clock.advance(60_000);
    linear.answerNext(rateLimitedReply({ status: 429, retryAfterSeconds: 30 }));
    await tick();
    expect(linear.callsTo("updateIssue")).toHaveLength(2);
    t.clock.advance(30_000);
    await tick();
    expect(linear.callsTo("updateIssue")).toHaveLength(3);
    expect(issue.description).toContain("| 46 | 0 | 0 |");
  });

  it("marks the connection broken on a revoked key, mails the owners once, and stops calling", async () => {
    const id = await newRequest("Revoked");
    await createIssue(id);
    linear.revoke(API_KEY);
    t.clock.advance(60_000);
    await vote(id, "r-1");
    await tick();
    expect((await acme.console.get(connection())).body).toMatchObject({ status: "broken", brokenReason: "unauthorized", brokenAt: t.clock.now().toISOString() });
    await tick();
    const subject = "Acme Notes: the Linear connection stopped";
    expect(smtp.to("owner@acme.example").filter((m) => m.subject === subject)).toHaveLength(1);
    const calls = linear.calls.length;
    for (let i = 0; i < 3; i++) {
      t.clock.advance(60_000);
      await vote(id, `r-more-${i}`);
      await tick();
    }
    const other = await newRequest("Another");
    expect((await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${other}/linear/issue`, {})).body.code).toBe("linear_connection_broken");
    expect(linear.calls).toHaveLength(calls);
    expect(smtp.to("owner@acme.example").filter((m) => m.subject === subject)).toHaveLength(1);

    // A new key repairs it: the block catches up with the votes.
    const fresh = "lin_api_0fresh0key0after0the0revocation0";
    linear.allow(fresh);
    const repaired = await acme.console.patch(connection(), { apiKey: fresh });
    expect(repaired.body).toMatchObject({ status: "active", brokenReason: null, keyHint: fresh.slice(-4) });
    await tick();
    expect(linear.calls.slice(calls).map((c) => `${c.operation} ${c.authorization}`)).toEqual([`issue ${fresh}`, `updateIssue ${fresh}`]);
  });

  it("takes a new webhook signing secret: deliveries signed with the old one are refused", async () => {
    const id = await newRequest("Rotated");
    const issue = await createIssue(id);
    expect((await acme.console.patch(connection(), { webhookSecret: "lin_wh_the_new_signing_secret" })).status).toBe(200);
    expect((await deliver(linearIssueStateChanged(issue, "completed", now()))).statusCode).toBe(401);
    expect((await deliver(linearIssueStateChanged(issue, "completed", now()), { secret: "lin_wh_the_new_signing_secret" })).statusCode).toBe(202);
    await tick();
    expect((await request(id)).columnSlug).toBe("shipped");
  });

  it("needs app.configure to change the connection and triage to link, and hides other workspaces' connections", async () => {
    const added = await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: `mia-${dialect}@acme.example`, role: "member" });
    expect(added.status).toBe(201);
    const token = await acme.console.post(`/users/${added.body.member.userId}/tokens`, { name: "mia" });
    const member = consoleClient(t.app, `Bearer ${token.body.token}`);
    expect((await member.patch(connection(), { apiKey: `${API_KEY}x` })).body.code).toBe("capability_required");
    expect((await member.delete(connection())).status).toBe(403);
    expect((await member.get(connection())).body).toMatchObject({ id: connectionId, keyHint: API_KEY.slice(-4) });
    const mine = await newRequest("Member's pick");
    expect((await member.post(`/workspaces/${acme.wsId}/feature-requests/${mine}/linear/issue`, {})).status).toBe(201);

    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, `other-${dialect}`);
    expect((await acme.console.get(`/workspaces/${other.wsId}/apps/${acme.appId}/linear`)).body.code).toBe("app_not_found");
    expect((await other.console.get(`/workspaces/${other.wsId}/feature-requests/${mine}/linear`)).body.code).toBe("feature_request_not_found");
    expect((await other.console.delete(`/workspaces/${other.wsId}/feature-requests/${mine}/linear`)).body.code).toBe("feature_request_not_found");
    expect((await other.console.get(`/workspaces/${other.wsId}/apps/${other.appId}/linear`)).body.code).toBe("linear_not_connected");
    expect((await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${mine}/linear`)).status).toBe(200);
  });
});
