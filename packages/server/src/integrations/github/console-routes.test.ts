import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMailTestApp, type MailTestApp } from "@tidings/testing/changelog-kit";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { startGithubServer, type GithubServer } from "@tidings/testing/github-server";
import { startSmtpTestServer, type SmtpTestServer } from "@tidings/testing/smtp-test-server";
import { testDialects } from "@tidings/testing/test-database";
import { findEndUser } from "../../users/identity.js";
import { parseWebhookAllow } from "../../webhooks/address-guard.js";
import { DEMAND_END, DEMAND_START } from "../demand-block.js";

const TOKEN = "github_pat_11AAAAAAA0test0token0for0the0console0routes";

describe.each(testDialects())("GitHub connection and links in the console API on %s", (dialect) => {
  let smtp: SmtpTestServer;
  let github: GithubServer;
  let t: MailTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    github = await startGithubServer({ token: TOKEN, repositories: ["acme/notes"] });
    t = await createMailTestApp(dialect, { smtpUrl: smtp.url, webhookAllow: parseWebhookAllow("127.0.0.1/32") });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(async () => {
    await t.close();
    await github.close();
    await smtp.close();
  });

  const connection = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/github`;
  const connect = (body: Record<string, unknown> = {}) =>
    acme.console.post(connection(), { owner: "acme", repo: "notes", token: TOKEN, apiBaseUrl: github.url, ...body });
  const newRequest = async (title: string, description = "") =>
    (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title, description, columnSlug: "under-review" })).body.id as string;
  const issueOf = (id: string) => `/workspaces/${acme.wsId}/feature-requests/${id}/github`;
  const vote = (id: string, token: string) => t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token }, payload: {} });
  const setPaying = async (token: string, mrrCents: number, currency: string) => {
    const user = await findEndUser(t.database.db.kysely, acme.appId, token);
    await t.database.db.kysely.updateTable("endUsers").set({ isPaying: 1, plan: "pro", mrrCents, currency }).where("id", "=", user!.id).execute();
  };
  const tick = async () => {
    await t.app.jobs.tick();
    await t.app.jobs.tick();
  };

  beforeEach(async () => {
    await acme.console.delete(connection());
    github.calls.length = 0;
  });

  it("connects a repository: the webhook secret is shown once, the token never, and the mapping names columns", async () => {
    const res = await connect({ reopenedColumn: "in-progress", labelColumns: [{ label: "Planned", column: "planned" }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      owner: "acme",
      repo: "notes",
      tokenHint: TOKEN.slice(-4),
      apiBaseUrl: github.url,
      status: "active",
      brokenReason: null,
      webhookUrl: `https://tidings.example/api/v1/integrations/github/${res.body.id}/webhook`,
      mapping: { closed: { slug: "shipped", name: "Shipped" }, reopened: { slug: "in-progress" }, labels: [{ label: "Planned", column: { slug: "planned" } }] },
    });
    expect(res.body.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);

    const read = await acme.console.get(connection());
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty("webhookSecret");
    expect(JSON.stringify(read.body)).not.toContain(TOKEN);
    expect(JSON.stringify(read.body)).not.toContain(res.body.webhookSecret);

    expect((await connect()).body.code).toBe("github_already_connected");

    const rotated = await acme.console.post(`${connection()}/webhook-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhookSecret).not.toBe(res.body.webhookSecret);

    const patched = await acme.console.patch(connection(), { closedColumn: "planned", labelColumns: [] });
    expect(patched.body.mapping).toMatchObject({ closed: { slug: "planned" }, labels: [] });
    // No call to GitHub is needed to connect.
    expect(github.calls).toHaveLength(0);
  });

  it("refuses bad connections with a 4xx and writes nothing", async () => {
    const refusals = [
      [{ owner: "-acme" }, 400, "validation_failed"],
      [{ repo: "notes/evil" }, 400, "validation_failed"],
      [{ token: "short" }, 400, "validation_failed"],
      [{ token: `${TOKEN} with spaces` }, 400, "validation_failed"],
      [{ apiBaseUrl: "http://169.254.169.254/latest" }, 400, "validation_failed"],
      [{ apiBaseUrl: "ftp://example.com" }, 400, "validation_failed"],
      [{ closedColumn: "no-such-column" }, 404, "column_not_found"],
      [{ labelColumns: [{ label: "a", column: "planned" }, { label: "A", column: "shipped" }] }, 400, "validation_failed"],
      [{ labelColumns: [{ label: "  ", column: "planned" }] }, 400, "validation_failed"],
    ] as const;
    for (const [body, status, code] of refusals) {
      const res = await connect(body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await acme.console.get(connection())).body.code).toBe("github_not_connected");
    expect((await acme.console.patch(connection(), { closedColumn: null })).body.code).toBe("github_not_connected");
    expect((await acme.console.patch(connection(), {})).status).toBe(400);
  });

  it("opens an issue from a request with a link back and the demand block, and links and unlinks existing issues", async () => {
    expect((await connect()).status).toBe(201);
    const dark = await newRequest("Dark mode", "Easier on the eyes at night.");
    for (const voter of ["v1", "v2", "v3"]) expect((await vote(dark, voter)).statusCode).toBe(200);
    await setPaying("v1", 4900, "USD");
    await setPaying("v2", 1000, "EUR");

    const created = await acme.console.post(`${issueOf(dark)}/issue`, {});
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ featureRequestId: dark, repository: "acme/notes", issueNumber: 1, issueUrl: "https://github.com/acme/notes/issues/1", issueTitle: "Dark mode", issueState: "open" });
    const [post] = github.callsTo("POST", "/repos/acme/notes/issues");
    expect(post!.authorization).toBe(`token ${TOKEN}`);
    const body = github.issues("acme/notes").get(1)!.body!;
    expect(body.startsWith("Easier on the eyes at night.\n\nRequested on Tidings: https://tidings.example/p/")).toBe(true);
    expect(body).toContain(`/requests/${dark}-dark-mode`);
    expect(body).toContain(DEMAND_START);
    expect(body).toContain("| 3 | 0 | 2 | USD 49.00 · EUR 10.00 |");
    expect((await acme.console.get(issueOf(dark))).body).toMatchObject({ issueNumber: 1, lastSyncedAt: t.clock.now().toISOString() });
    expect((await acme.console.post(`${issueOf(dark)}/issue`, {})).body.code).toBe("github_already_linked");

    // An existing issue, by URL: the team's text stays, the block is appended by the queued write.
    github.issues("acme/notes").set(7, { number: 7, title: "Offline mode", body: "Team notes.\n\n- [ ] sync", state: "open" });
    const offline = await newRequest("Offline mode");
    const linked = await acme.console.put(issueOf(offline), { issue: "https://github.com/Acme/Notes/issues/7" });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(linked.body).toMatchObject({ issueNumber: 7, issueTitle: "Offline mode", lastSyncedAt: null });
    await tick();
    const seven = github.issues("acme/notes").get(7)!.body!;
    expect(seven.startsWith(`Team notes.\n\n- [ ] sync\n\n${DEMAND_START}`)).toBe(true);
    expect(seven.endsWith(DEMAND_END)).toBe(true);
    expect(seven).toContain("| 0 | 0 | 0 | — |");

    // Refused links change nothing.
    const other = await newRequest("Widgets");
    expect((await acme.console.put(issueOf(other), { issue: 7 })).body.code).toBe("github_already_linked");
    expect((await acme.console.put(issueOf(other), { issue: "https://github.com/someone/else/issues/7" })).body.code).toBe("github_issue_not_found");
    expect((await acme.console.put(issueOf(other), { issue: "#99" })).body.code).toBe("github_issue_not_found");
    expect((await acme.console.put(issueOf(other), { issue: "not an issue" })).body.code).toBe("github_issue_not_found");
    expect((await acme.console.put(issueOf(other), { issue: 0 })).status).toBe(400);
    github.issues("acme/notes").set(8, { number: 8, title: "A pull request", body: null, state: "open", pull: true });
    expect((await acme.console.put(issueOf(other), { issue: "acme/notes#8" })).body.code).toBe("github_issue_not_found");
    expect((await acme.console.get(issueOf(other))).body.code).toBe("github_link_not_found");

    expect((await acme.console.delete(issueOf(offline))).status).toBe(200);
    expect((await acme.console.get(issueOf(offline))).body.code).toBe("github_link_not_found");
    expect((await acme.console.delete(issueOf(offline))).body.code).toBe("github_link_not_found");
    // The block is taken out of the issue, the team's text stays; the issue can be linked again.
    await tick();
    expect(github.issues("acme/notes").get(7)!.body).toBe("Team notes.\n\n- [ ] sync");
    expect((await acme.console.put(issueOf(other), { issue: "#7" })).status).toBe(201);
  });

  it("answers a rate-limited or failing GitHub with 502 github_unavailable and links nothing", async () => {
    expect((await connect()).status).toBe(201);
    const id = await newRequest("Export to CSV");
    github.answerNext({ status: 429, headers: { "retry-after": "30" }, body: { message: "secondary rate limit" } });
    const limited = await acme.console.post(`${issueOf(id)}/issue`, {});
    expect([limited.status, limited.body.code, limited.headers["retry-after"]]).toEqual([502, "github_unavailable", "30"]);
    // The pause holds for the connection: no call until it is over.
    const calls = github.calls.length;
    const paused = await acme.console.post(`${issueOf(id)}/issue`, {});
    expect([paused.status, paused.headers["retry-after"]]).toEqual([502, "30"]);
    expect(github.calls).toHaveLength(calls);
    expect((await acme.console.get(connection())).body.pausedUntil).toBe(new Date(t.clock.now().getTime() + 30_000).toISOString());
    t.clock.advance(30_000);
    github.answerNext({ status: 500, body: { message: "boom" } });
    expect((await acme.console.post(`${issueOf(id)}/issue`, {})).body).toMatchObject({ code: "github_unavailable", details: { status: 500 } });
    expect((await acme.console.get(issueOf(id))).body.code).toBe("github_link_not_found");
    expect(github.issues("acme/notes").size).toBeGreaterThan(0);
  });

  it("needs app.configure to connect and triage to link, and hides other workspaces' connections", async () => {
    const added = await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "mia@acme.example", role: "member" });
    expect(added.status).toBe(201);
    const token = await acme.console.post(`/users/${added.body.member.userId}/tokens`, { name: "mia" });
    const member = consoleClient(t.app, `Bearer ${token.body.token}`);
    const refused = await member.post(connection(), { owner: "acme", repo: "notes", token: TOKEN, apiBaseUrl: github.url });
    expect([refused.status, refused.body.code]).toEqual([403, "capability_required"]);
    expect((await acme.console.get(connection())).body.code).toBe("github_not_connected");
    expect((await connect()).status).toBe(201);
    expect((await member.patch(connection(), { token: `${TOKEN}x` })).status).toBe(403);
    expect((await member.delete(connection())).status).toBe(403);
    expect((await member.post(`${connection()}/webhook-secret`)).status).toBe(403);
    // A member reads the connection (never its secrets) and links issues.
    expect((await member.get(connection())).body).not.toHaveProperty("webhookSecret");
    const mine = await newRequest("Member's pick");
    expect((await member.post(`${issueOf(mine)}/issue`, {})).status).toBe(201);

    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other");
    expect((await acme.console.get(`/workspaces/${other.wsId}/apps/${acme.appId}/github`)).body.code).toBe("app_not_found");
    const id = await newRequest("Private");
    expect((await other.console.get(`/workspaces/${other.wsId}/feature-requests/${id}/github`)).body.code).toBe("feature_request_not_found");
    expect((await other.console.get(`/workspaces/${other.wsId}/apps/${other.appId}/github`)).body.code).toBe("github_not_connected");
  });
});
