import type { IssuesEvent } from "@octokit/webhooks-types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMailTestApp, type MailTestApp } from "@tidings/testing/changelog-kit";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { githubDeliveryHeaders, issuesClosedEvent, issuesLabeledEvent, issuesReopenedEvent, startGithubServer, type GithubServer } from "@tidings/testing/github-server";
import { startSmtpTestServer, type SmtpTestServer } from "@tidings/testing/smtp-test-server";
import { signTestSsoToken } from "@tidings/testing/sso-tokens";
import { testDialects } from "@tidings/testing/test-database";
import { DIGEST_WINDOW_MS } from "../../feature-requests/notices.js";
import { parseWebhookAllow } from "../../webhooks/address-guard.js";
import { DELIVERY_MEMORY_MS } from "../deliveries.js";

const TOKEN = "github_pat_11BBBBBBB0test0token0for0the0sync0jobs00000";
const REPO = "acme/notes";

describe.each(testDialects())("GitHub sync on %s", (dialect) => {
  let smtp: SmtpTestServer;
  let github: GithubServer;
  let t: MailTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  let connectionId: string;
  let secret: string;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    github = await startGithubServer({ token: TOKEN, repositories: [REPO] });
    t = await createMailTestApp(dialect, { smtpUrl: smtp.url, webhookAllow: parseWebhookAllow("127.0.0.1/32") });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    expect((await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "owner@acme.example", role: "owner", displayName: "Olive" })).status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
    await github.close();
    await smtp.close();
  });

  const connection = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/github`;
  beforeEach(async () => {
    github.allowToken(TOKEN);
    await acme.console.delete(connection());
    const res = await acme.console.post(connection(), {
      owner: "acme",
      repo: "notes",
      token: TOKEN,
      apiBaseUrl: github.url,
      reopenedColumn: "in-progress",
      labelColumns: [{ label: "Planned", column: "planned" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    connectionId = res.body.id;
    secret = res.body.webhookSecret;
    github.calls.length = 0;
    // Each test starts at the top of a minute.
    t.clock.advance(60_000 - (t.clock.now().getTime() % 60_000));
  });

  const newRequest = async (title: string) =>
    (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title, columnSlug: "under-review" })).body.id as string;
  const request = async (id: string) => (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}`)).body as { columnSlug: string | null; events: { type: string; actor: string }[] };
  const openIssue = async (id: string) => {
    const res = await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${id}/github/issue`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.issueNumber as number;
  };
  const vote = async (id: string, token: string) => expect((await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token }, payload: {} })).statusCode).toBe(200);
  const deliver = (event: IssuesEvent | Record<string, unknown>, options: { deliveryId?: string; secret?: string; name?: string } = {}) => {
    const body = JSON.stringify(event);
    return t.app.inject({
      method: "POST",
      url: `/api/v1/integrations/github/${connectionId}/webhook`,
      headers: githubDeliveryHeaders(options.secret ?? secret, options.name ?? "issues", body, options.deliveryId),
      payload: body,
    });
  };
  const tick = async () => {
    await t.app.jobs.tick();
    await t.app.jobs.tick();
  };
  const patches = (issue: number) => github.callsTo("PATCH", `/repos/${REPO}/issues/${issue}`);
  const deliveries = () => t.database.db.kysely.selectFrom("trackerWebhookDeliveries").selectAll().where("connectionId", "=", connectionId).execute();

  it("moves a request to Shipped when its issue is closed as completed, and its followers hear it in their digest", async () => {
    const id = await newRequest("Dark mode");
    const ada = { "x-sso-token": await signTestSsoToken(acme.signingSecret, acme.appKey, t.clock.now(), { sub: "ada", email: "ada@example.com", name: "Ada" }) };
    expect((await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/subscription`, headers: ada, payload: {} })).json()).toEqual({ following: true, pending: false });
    const issue = await openIssue(id);

    const answer = await deliver(issuesClosedEvent(REPO, issue));
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.json()).toEqual({ duplicate: false, queued: true });
    await tick();
    const moved = await request(id);
    expect(moved.columnSlug).toBe("shipped");
    expect(moved.events.filter((e) => e.type === "moved" || e.type === "shipped").map((e) => `${e.type} by ${e.actor}`).sort()).toEqual([
      "moved by integration:github",
      "shipped by integration:github",
    ]);
    expect((await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}/github`)).body.issueState).toBe("closed");

    t.clock.advance(DIGEST_WINDOW_MS - (t.clock.now().getTime() % DIGEST_WINDOW_MS));
    await tick();
    const digests = smtp.to("ada@example.com").filter((m) => m.subject?.includes("Dark mode"));
    expect(digests).toHaveLength(1);
    expect(digests[0]!.text).toContain("Shipped");
  });

  it("ignores a replayed delivery id, issues closed as not planned, other repositories and unlinked issues", async () => {
    const id = await newRequest("Offline mode");
    const issue = await openIssue(id);
    const first = await deliver(issuesClosedEvent(REPO, issue), { deliveryId: "d-1" });
    expect(first.json()).toEqual({ duplicate: false, queued: true });
    await tick();
    expect((await request(id)).columnSlug).toBe("shipped");
    // The team moves it back; GitHub redelivers the same close: nothing happens.
    expect((await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}`, { columnSlug: "planned" })).status).toBe(200);
    const replay = await deliver(issuesClosedEvent(REPO, issue), { deliveryId: "d-1" });
    expect([replay.statusCode, replay.json()]).toEqual([202, { duplicate: true, queued: false }]);
    await tick();
    expect((await request(id)).columnSlug).toBe("planned");

    expect((await deliver(issuesClosedEvent(REPO, issue, "not_planned"))).json()).toEqual({ duplicate: false, queued: true });
    expect((await deliver(issuesClosedEvent("someone/else", issue))).json()).toEqual({ duplicate: false, queued: false });
    expect((await deliver(issuesClosedEvent(REPO, 999))).json()).toEqual({ duplicate: false, queued: true });
    expect((await deliver({ zen: "Keep it logically awesome.", hook_id: 1 }, { name: "ping" })).statusCode).toBe(202);
    await tick();
    expect((await request(id)).columnSlug).toBe("planned");

    // Ids are remembered for a month (GitHub redelivers only the past three days), then forgotten.
    expect((await deliveries()).map((d) => d.deliveryId)).toContain("d-1");
    t.clock.advance(DELIVERY_MEMORY_MS + 60 * 60_000);
    await tick();
    expect(await deliveries()).toEqual([]);
  });

  it("moves a request to the mapped column when its issue is reopened or gets a mapped label", async () => {
    const id = await newRequest("Widgets");
    const issue = await openIssue(id);
    await deliver(issuesLabeledEvent(REPO, issue, "planned"));
    await tick();
    expect((await request(id)).columnSlug).toBe("planned");
    await deliver(issuesLabeledEvent(REPO, issue, "bug"));
    await tick();
    expect((await request(id)).columnSlug).toBe("planned");
    await deliver(issuesClosedEvent(REPO, issue));
    await tick();
    expect((await request(id)).columnSlug).toBe("shipped");
    await deliver(issuesReopenedEvent(REPO, issue));
    await tick();
    expect((await request(id)).columnSlug).toBe("in-progress");
  });

  it("refuses a forged, missing or stale signature with 401 and writes nothing", async () => {
    const id = await newRequest("Forged");
    const issue = await openIssue(id);
    const jobs = async () => (await t.database.db.kysely.selectFrom("jobs").select("id").execute()).length;
    const before = await jobs();
    const event = issuesClosedEvent(REPO, issue);
    const body = JSON.stringify(event);
    const forged = await deliver(event, { secret: "not-the-secret" });
    expect([forged.statusCode, forged.json().code]).toEqual([401, "invalid_webhook_signature"]);
    const unsigned = githubDeliveryHeaders(secret, "issues", body);
    delete unsigned["x-hub-signature-256"];
    const missing = await t.app.inject({ method: "POST", url: `/api/v1/integrations/github/${connectionId}/webhook`, headers: unsigned, payload: body });
    expect(missing.statusCode).toBe(401);
    // Signed over another body: the payload was changed on the way.
    const tampered = await t.app.inject({ method: "POST", url: `/api/v1/integrations/github/${connectionId}/webhook`, headers: githubDeliveryHeaders(secret, "issues", body), payload: body.replace('"closed"', '"reopened"') });
    expect(tampered.statusCode).toBe(401);
    // After a rotation the old secret signs nothing.
    await acme.console.post(`${connection()}/webhook-secret`);
    expect((await deliver(event)).statusCode).toBe(401);
    const unknown = await t.app.inject({ method: "POST", url: `/api/v1/integrations/github/ghc_${"0".repeat(26)}/webhook`, headers: githubDeliveryHeaders(secret, "issues", body), payload: body });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, "github_not_connected"]);
    await tick();
    expect((await request(id)).columnSlug).toBe("under-review");
    expect(await deliveries()).toEqual([]);
    expect(await jobs()).toBe(before);
  });

  it("writes the demand block at most once a minute per issue under a vote storm, with the latest numbers", async () => {
    const id = await newRequest("Storm");
    github.issues(REPO).set(50, { number: 50, title: "Storm", body: "Engineering notes stay.", state: "open" });
    expect((await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}/github`, { issue: 50 })).status).toBe(201);
    await tick();
    expect(patches(50)).toHaveLength(1);
    const start = t.clock.now().getTime();

    // 45 votes over 45 seconds, the runner ticking after each: no write before the minute is up.
    for (let i = 0; i < 45; i++) {
      t.clock.advance(1_000);
      await vote(id, `storm-${i}`);
      await tick();
    }
    expect(patches(50)).toHaveLength(1);
    t.clock.advance(start + 60_000 - t.clock.now().getTime());
    await tick();
    expect(patches(50)).toHaveLength(2);
    expect(github.issues(REPO).get(50)!.body).toContain("| 45 | 0 | 0 |");

    // More votes within the next minute: one more write, at its end.
    for (let i = 45; i < 60; i++) {
      t.clock.advance(2_000);
      await vote(id, `storm-${i}`);
      await tick();
    }
    expect(patches(50)).toHaveLength(2);
    t.clock.advance(start + 120_000 - t.clock.now().getTime());
    await tick();
    expect(patches(50)).toHaveLength(3);
    const body = github.issues(REPO).get(50)!.body!;
    expect(body.startsWith("Engineering notes stay.\n\n<!-- tidings:demand:start -->")).toBe(true);
    expect(body).toContain("| 60 | 0 | 0 |");
    expect(body.match(/tidings:demand:start/g)).toHaveLength(1);
    // Nothing changed since: no more calls.
    const calls = github.calls.length;
    t.clock.advance(5 * 60_000);
    await tick();
    expect(github.calls).toHaveLength(calls);
  });

  it("reschedules the write when GitHub answers with a rate limit, and makes no call until it allows", async () => {
    const id = await newRequest("Limited");
    const issue = await openIssue(id);
    const connectionRead = async () => (await acme.console.get(connection())).body as { pausedUntil: string | null };
    const resetAt = Math.floor(t.clock.now().getTime() / 1000) + 600;

    // Primary limit: 403 with x-ratelimit-remaining 0 → wait for x-ratelimit-reset.
    t.clock.advance(60_000);
    await vote(id, "rl-1");
    github.answerNext({ status: 403, headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(resetAt) }, body: { message: "API rate limit exceeded" } });
    await tick();
    expect(github.calls).toHaveLength(2);
    expect((await connectionRead()).pausedUntil).toBe(new Date(resetAt * 1000).toISOString());
    t.clock.advance(300_000);
    await vote(id, "rl-2");
    await tick();
    expect(github.calls).toHaveLength(2);
    t.clock.advance(resetAt * 1000 - t.clock.now().getTime());
    await tick();
    expect(patches(issue)).toHaveLength(1);
    expect(github.issues(REPO).get(issue)!.body).toContain("| 2 | 0 | 0 |");

    // Secondary limit with retry-after: that many seconds.
    t.clock.advance(60_000);
    await vote(id, "rl-3");
    github.answerNext({ status: 429, headers: { "retry-after": "90" }, body: { message: "You have exceeded a secondary rate limit" } });
    await tick();
    expect(patches(issue)).toHaveLength(1);
    t.clock.advance(89_000);
    await tick();
    expect(patches(issue)).toHaveLength(1);
    t.clock.advance(1_000);
    await tick();
    expect(patches(issue)).toHaveLength(2);

    // Secondary limit without a time: at least a minute.
    t.clock.advance(60_000);
    await vote(id, "rl-4");
    github.answerNext({ status: 403, body: { message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again." } });
    await tick();
    t.clock.advance(59_000);
    await tick();
    expect(patches(issue)).toHaveLength(2);
    t.clock.advance(1_000);
    await tick();
    expect(patches(issue)).toHaveLength(3);

    // A read that spent the hour's last call pauses the connection: the write waits for the reset.
    t.clock.advance(60_000);
    await vote(id, "rl-5");
    const reset = Math.floor(t.clock.now().getTime() / 1000) + 1_200;
    github.setSuccessHeaders({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) });
    await tick();
    github.setSuccessHeaders({});
    expect(patches(issue)).toHaveLength(3);
    expect((await connectionRead()).pausedUntil).toBe(new Date(reset * 1000).toISOString());
    t.clock.advance(reset * 1000 - t.clock.now().getTime());
    await tick();
    expect(patches(issue)).toHaveLength(4);
    expect(github.issues(REPO).get(issue)!.body).toContain("| 5 | 0 | 0 |");
  });

  it("marks the connection broken on a revoked token, mails the owners once, and stops calling until a new token is saved", async () => {
    const id = await newRequest("Revoked");
    const issue = await openIssue(id);
    github.revoke(TOKEN);
    t.clock.advance(60_000);
    await vote(id, "r-1");
    await tick();
    const read = (await acme.console.get(connection())).body;
    expect(read).toMatchObject({ status: "broken", brokenReason: "unauthorized", brokenAt: t.clock.now().toISOString() });
    await tick();
    const mails = smtp.to("owner@acme.example").filter((m) => m.subject === "Acme Notes: the GitHub connection stopped");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("acme/notes");

    const calls = github.calls.length;
    for (let i = 0; i < 5; i++) {
      t.clock.advance(60_000);
      await vote(id, `r-more-${i}`);
      await tick();
    }
    const other = await newRequest("Another");
    expect((await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${other}/github/issue`, {})).body.code).toBe("github_connection_broken");
    expect(github.calls).toHaveLength(calls);
    expect(smtp.to("owner@acme.example").filter((m) => m.subject === "Acme Notes: the GitHub connection stopped")).toHaveLength(1);

    // A new token repairs it: the block catches up.
    const fresh = "github_pat_11CCCCCCC0a0fresh0token0after0revocation0000";
    github.allowToken(fresh);
    const repaired = await acme.console.patch(connection(), { token: fresh });
    expect(repaired.body).toMatchObject({ status: "active", brokenReason: null, tokenHint: fresh.slice(-4) });
    await tick();
    const since = github.calls.slice(calls);
    expect(since.map((c) => `${c.method} ${c.authorization}`)).toEqual([`GET token ${fresh}`, `PATCH token ${fresh}`]);
    expect(github.issues(REPO).get(issue)!.body).toContain("| 6 | 0 | 0 |");
  });

  it("marks the connection broken when the token lacks a permission (a 403 that is no rate limit)", async () => {
    const id = await newRequest("Read only token");
    await openIssue(id);
    t.clock.advance(60_000);
    await vote(id, "f-1");
    github.answerNext({ status: 403, body: { message: "Resource not accessible by personal access token", documentation_url: "https://docs.github.com/rest/issues/issues#update-an-issue" } });
    await tick();
    expect((await acme.console.get(connection())).body).toMatchObject({ status: "broken", brokenReason: "forbidden" });
    const calls = github.calls.length;
    t.clock.advance(10 * 60_000);
    await vote(id, "f-2");
    await tick();
    expect(github.calls).toHaveLength(calls);
  });

  it("marks the connection broken when the repository is gone", async () => {
    const id = await newRequest("Gone");
    const issue = await openIssue(id);
    github.removeRepository(REPO);
    try {
      t.clock.advance(60_000);
      await vote(id, "g-1");
      await tick();
      expect((await acme.console.get(connection())).body).toMatchObject({ status: "broken", brokenReason: "repository_not_found" });
      expect(github.calls.slice(-2).map((c) => `${c.method} ${new URL(c.path, "http://x").pathname}`)).toEqual([`GET /repos/${REPO}/issues/${issue}`, `GET /repos/${REPO}`]);
    } finally {
      github.addRepository(REPO);
    }
  });
});
