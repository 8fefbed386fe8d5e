import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMailTestApp, type MailTestApp } from "@tidings/testing/changelog-kit";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { githubDeliveryHeaders, startGithubServer, type GithubServer } from "@tidings/testing/github-server";
import { startSmtpTestServer, type SmtpTestServer } from "@tidings/testing/smtp-test-server";
import { testDialects } from "@tidings/testing/test-database";
import { parseWebhookAllow } from "../../webhooks/address-guard.js";
import { INSTALLATION_TOKEN_MARGIN_MS } from "./app-auth.js";

const TOKEN = "github_pat_11DDDDDDD0test0token0for0app0installations0";
const REPO = "acme/notes";
const APP_ID = "123456";
const INSTALLATION = "77";
const pair = () => generateKeyPairSync("rsa", { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs1", format: "pem" } });
const { publicKey, privateKey } = pair();

describe.each(testDialects())("GitHub App installations on %s", (dialect) => {
  let smtp: SmtpTestServer;
  let github: GithubServer;
  let t: MailTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  let connectionId: string;
  let secret: string;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    github = await startGithubServer({ token: TOKEN, repositories: [REPO], app: { appId: APP_ID, publicKey, installations: [INSTALLATION], now: () => t.clock.now() } });
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
  const connect = (githubApp: Record<string, string>) => acme.console.post(connection(), { owner: "acme", repo: "notes", githubApp, apiBaseUrl: github.url });
  beforeEach(async () => {
    await acme.console.delete(connection());
    const res = await connect({ appId: APP_ID, privateKey, installationId: INSTALLATION });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    connectionId = res.body.id;
    secret = res.body.webhookSecret;
    github.calls.length = 0;
  });

  const newRequest = async (title: string) =>
    (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title, columnSlug: "under-review" })).body.id as string;
  const openIssue = (id: string) => acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${id}/github/issue`, {});
  const deliver = (name: string, event: Record<string, unknown>, deliveryId?: string) => {
    const body = JSON.stringify(event);
    return t.app.inject({ method: "POST", url: `/api/v1/integrations/github/${connectionId}/webhook`, headers: githubDeliveryHeaders(secret, name, body, deliveryId), payload: body });
  };
  const brokenMails = () => smtp.to("owner@acme.example").filter((m) => m.subject === "Acme Notes: the GitHub connection stopped");
  const tick = async () => {
    await t.app.jobs.tick();
    await t.app.jobs.tick();
  };

  it("connects through an installation: mints a token with the app's JWT and reuses it until shortly before it expires", async () => {
    const shown = (await acme.console.get(connection())).body;
    expect(shown).toMatchObject({ auth: "app", githubAppId: APP_ID, installationId: INSTALLATION, tokenHint: "", owner: "acme", repo: "notes", status: "active" });
    expect(JSON.stringify(shown)).not.toContain("PRIVATE KEY");
    const minted = github.minted();

    const first = await openIssue(await newRequest("Dark mode"));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(github.minted()).toBe(minted + 1);
    const [mint, create] = github.calls;
    expect(`${mint!.method} ${mint!.path}`).toBe(`POST /app/installations/${INSTALLATION}/access_tokens`);
    expect(create!.path).toBe(`/repos/${REPO}/issues`);
    const installationToken = create!.authorization;
    expect(installationToken).toMatch(/^token ghs_/);

    t.clock.advance(3_600_000 - INSTALLATION_TOKEN_MARGIN_MS - 60_000);
    expect((await openIssue(await newRequest("Export"))).status).toBe(201);
    expect(github.minted()).toBe(minted + 1);
    expect(github.calls.at(-1)!.authorization).toBe(installationToken);

    // Within five minutes of its expiry, a new token is minted.
    t.clock.advance(2 * 60_000);
    expect((await openIssue(await newRequest("Calendar sync"))).status).toBe(201);
    expect(github.minted()).toBe(minted + 2);
    expect(github.calls.at(-1)!.authorization).not.toBe(installationToken);
  });

  it("writes the demand block through the job queue with the installation's token", async () => {
    const id = await newRequest("Offline mode");
    const opened = await openIssue(id);
    expect(opened.status).toBe(201);
    t.clock.advance(60_000);
    expect((await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": "voter-1" }, payload: {} })).statusCode).toBe(200);
    await tick();
    const patches = github.callsTo("PATCH", `/repos/${REPO}/issues/${opened.body.issueNumber}`);
    expect(patches).toHaveLength(1);
    expect(patches[0]!.authorization).toMatch(/^token ghs_/);
    expect(github.issues(REPO).get(opened.body.issueNumber)!.body).toContain("| 1 | 0 | 0 |");
  });

  it("refuses a token and app credentials together, neither, or a key that is no PEM, with 400 and writes nothing", async () => {
    await acme.console.delete(connection());
    const refused = [
      await acme.console.post(connection(), { owner: "acme", repo: "notes", token: TOKEN, githubApp: { appId: APP_ID, privateKey, installationId: INSTALLATION }, apiBaseUrl: github.url }),
      await acme.console.post(connection(), { owner: "acme", repo: "notes", apiBaseUrl: github.url }),
      await connect({ appId: APP_ID, privateKey: `-----BEGIN RSA PRIVATE KEY-----\n${"A".repeat(200)}\n-----END RSA PRIVATE KEY-----`, installationId: INSTALLATION }),
      await connect({ appId: "not a number", privateKey, installationId: INSTALLATION }),
    ];
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(Array.from({ length: 4 }, () => [400, "validation_failed"]));
    expect((await acme.console.get(connection())).body.code).toBe("github_not_connected");
  });

  const installation = (action: string) => ({ action, installation: { id: Number(INSTALLATION), account: { login: "acme" } }, sender: { login: "acme-admin" } });
  it.each([
    ["installation", installation("deleted"), "installation_removed"],
    ["installation", installation("suspend"), "installation_suspended"],
    ["installation_repositories", { ...installation("removed"), repositories_removed: [{ id: 9, name: "notes", full_name: "Acme/Notes" }], repositories_added: [] }, "repository_removed"],
  ])("marks the connection broken on an %s delivery (%#), mails the owners once, and stops calling", async (name, event, reason) => {
    const mailsBefore = brokenMails().length;
    // Another installation, or another repository taken out, changes nothing.
    expect((await deliver(name, { ...event, installation: { id: 1 } })).statusCode).toBe(202);
    expect((await deliver("installation_repositories", { ...installation("removed"), repositories_removed: [{ id: 8, name: "site", full_name: "acme/site" }] })).statusCode).toBe(202);
    expect((await acme.console.get(connection())).body.status).toBe("active");

    const answer = await deliver(name, event, `gone-${reason}`);
    expect(answer.statusCode, answer.body).toBe(202);
    expect((await acme.console.get(connection())).body).toMatchObject({ status: "broken", brokenReason: reason, brokenAt: t.clock.now().toISOString() });
    expect((await deliver(name, event, `gone-${reason}`)).json()).toEqual({ duplicate: true, queued: false });
    await tick();
    expect(brokenMails()).toHaveLength(mailsBefore + 1);
    expect(brokenMails().at(-1)!.text).toContain("GitHub App");

    const refused = await openIssue(await newRequest(`After ${reason}`));
    expect(refused.body).toMatchObject({ code: "github_connection_broken", details: { reason } });
    expect(github.calls).toEqual([]);
  });

  it("marks the connection broken when GitHub refuses the app's key or the installation is gone when minting", async () => {
    await acme.console.delete(connection());
    const other = pair();
    expect((await connect({ appId: APP_ID, privateKey: other.privateKey, installationId: INSTALLATION })).status).toBe(201);
    const mailsBefore = brokenMails().length;
    const refused = await openIssue(await newRequest("Wrong key"));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "github_connection_broken", details: { reason: "unauthorized" } });
    expect((await acme.console.get(connection())).body).toMatchObject({ status: "broken", brokenReason: "unauthorized" });

    // Saving the right key repairs it; an installation removed meanwhile breaks it again at the next mint.
    t.clock.advance(60_000);
    const repaired = await acme.console.patch(connection(), { githubApp: { appId: APP_ID, privateKey, installationId: "78" } });
    expect(repaired.body).toMatchObject({ status: "active", installationId: "78" });
    const gone = await openIssue(await newRequest("Uninstalled"));
    expect(gone.body).toMatchObject({ code: "github_connection_broken", details: { reason: "installation_removed" } });
    await tick();
    expect(brokenMails()).toHaveLength(mailsBefore + 2);
  });
});
