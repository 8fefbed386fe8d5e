import { startGithubServer, type GithubServer } from "@tidings/testing/github-server";
import { startLinearServer, type LinearServer } from "@tidings/testing/linear-server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./browser.js";
import { openDashboard, type DashboardSession } from "./dashboard-session.js";

const OWNER = { name: "Gil Hub", email: "gil@tracked.example", password: "correct horse battery staple" };
const TOKEN = "github_pat_11AAAAAAA0e2e0token0for0the0dashboard";
const LINEAR_KEY = "lin_api_e2e0key0for0the0dashboard0000";

describe.skipIf(!chromiumAvailable())("dashboard GitHub and Linear integrations in Chromium", () => {
  let dash: DashboardSession;
  let baseUrl = "";
  let github: GithubServer;
  let linear: LinearServer;
  let page: Page;
  const state = { wsId: "", appId: "" };

  /** The operator's view of the data, to check what the UI did. */
  const consoleApi = <T,>(method: string, url: string, body?: unknown) => dash.consoleApi<T>(method, url, body);
  const shot = (name: string) => dash.shot(name);
  const integrations = async () => {
    await page.goto(`${baseUrl}/admin/w/${state.wsId}/a/${state.appId}/integrations`);
    await page.getByRole("heading", { name: "Integrations", level: 1 }).waitFor();
  };

  beforeAll(async () => {
    github = await startGithubServer({ token: TOKEN, repositories: ["acme/notes"] });
    github.issues("acme/notes").set(7, { number: 7, title: "Dark mode", body: "Please", state: "open" });
    linear = await startLinearServer({ apiKey: LINEAR_KEY, teamId: "team-1", teamKey: "ENG" });
    dash = await openDashboard({ name: "integrations", owner: OWNER, workspace: "Tracked", app: "Tracked Notes", env: { TIDINGS_WEBHOOK_ALLOW: "127.0.0.1/32,localhost" } });
    ({ baseUrl, page } = dash);
    state.wsId = dash.wsId;
    state.appId = dash.appId;
  }, 60_000);
  afterAll(async () => {
    await dash?.close();
    await github?.close();
    await linear?.close();
  }, 60_000);

  it("connects GitHub with a token, shows the webhook secret once, and saves a label rule", async () => {
    await page.getByRole("link", { name: "Integrations" }).click();
    await page.getByRole("heading", { name: "Integrations", level: 1 }).waitFor();
    const form = page.getByRole("form", { name: "Connect GitHub" });
    await form.getByLabel("Owner (user or organisation)").fill("acme");
    await form.getByLabel("Repository").fill("notes");
    await form.getByLabel("Access token").fill(TOKEN);
    await form.getByLabel("API base URL (optional)").fill(github.url);
    await form.getByRole("button", { name: "Connect GitHub" }).click();
    await page.getByText(`Connected (credential ending in ${TOKEN.slice(-4)}).`).waitFor();
    const secret = await page.getByTestId("webhook-secret").innerText();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(await page.content()).not.toContain(TOKEN);

    const mapping = page.getByRole("form", { name: "Column mapping" });
    await mapping.getByRole("button", { name: "Add a label rule" }).click();
    await mapping.getByLabel("GitHub label").fill("Planned");
    await mapping.getByLabel("Column for label Planned").selectOption({ label: "Planned" });
    await mapping.getByRole("button", { name: "Save mapping" }).click();
    await page.getByText("Saved.").waitFor();
    const saved = await consoleApi<{ mapping: { labels: { label: string; column: { slug: string } }[] } }>("GET", `/workspaces/${state.wsId}/apps/${state.appId}/github`);
    expect(saved.mapping.labels).toMatchObject([{ label: "Planned", column: { slug: "planned" } }]);
    await shot("connected");
  });

  it("creates an issue from a request, unlinks it, and links an existing issue by number", async () => {
    const { id } = await consoleApi<{ id: string }>("POST", `/workspaces/${state.wsId}/feature-requests`, { appId: state.appId, title: "Sync with calendars", description: "Show my meetings." });
    await page.goto(`${baseUrl}/admin/w/${state.wsId}/a/${state.appId}/requests/${id}`);
    const issue = page.getByTestId("github-issue");
    await issue.getByRole("button", { name: "Create a GitHub issue" }).click();
    await issue.getByRole("link", { name: /^acme\/notes#\d+ Sync with calendars$/ }).waitFor();
    const created = [...github.issues("acme/notes").values()].find((i) => i.title === "Sync with calendars");
    expect(created?.body).toContain("Show my meetings.");
    expect(await issue.getByRole("link").first().innerText()).toBe(`acme/notes#${created?.number} Sync with calendars`);

    await issue.getByRole("button", { name: "Unlink issue" }).click();
    await page.getByText("Issue unlinked.").waitFor();
    await issue.getByLabel("Link an existing GitHub issue").fill("#7");
    await issue.getByRole("button", { name: "Link", exact: true }).click();
    await issue.getByRole("link", { name: "acme/notes#7 Dark mode" }).waitFor();
    expect(await issue.getByRole("link", { name: "acme/notes#7 Dark mode" }).getAttribute("href")).toBe("https://github.com/acme/notes/issues/7");
    await shot("linked");
  });

  it("shows a connection GitHub refused as broken with the reason, repairs it with a new token, and disconnects", async () => {
    const { id } = await consoleApi<{ id: string }>("POST", `/workspaces/${state.wsId}/feature-requests`, { appId: state.appId, title: "Widgets" });
    github.revoke(TOKEN);
    await page.goto(`${baseUrl}/admin/w/${state.wsId}/a/${state.appId}/requests/${id}`);
    const issue = page.getByTestId("github-issue");
    await issue.getByRole("button", { name: "Create a GitHub issue" }).click();
    await issue.getByRole("alert").waitFor();

    await integrations();
    await page.getByTestId("integration-status").getByText(/the credential was refused/).waitFor();
    await shot("broken");
    const fresh = `${TOKEN}x2`;
    github.allowToken(fresh);
    await page.getByLabel("New access token").fill(fresh);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("The new credential is saved.").waitFor();
    await page.getByText(`Connected (credential ending in ${fresh.slice(-4)}).`).waitFor();

    await page.getByRole("button", { name: "Disconnect" }).first().click();
    await page.getByText("Disconnected.").waitFor();
    await page.getByRole("form", { name: "Connect GitHub" }).waitFor();
  });

  it("connects Linear with an API key and signing secret, shows it connected, and disconnects it", async () => {
    await integrations();
    const form = page.getByRole("form", { name: "Connect Linear" });
    await form.getByLabel("Team id").fill("team-1");
    await form.getByLabel("API key").fill(LINEAR_KEY);
    await form.getByLabel("Webhook signing secret").fill("linear-signing-secret");
    await form.getByLabel("API URL (optional)").fill(linear.url);
    await form.getByRole("button", { name: "Connect Linear" }).click();
    const section = page.getByRole("region", { name: "Linear" });
    await section.getByText(`Connected (credential ending in ${LINEAR_KEY.slice(-4)}).`).waitFor();
    expect(await consoleApi<{ teamId: string; status: string }>("GET", `/workspaces/${state.wsId}/apps/${state.appId}/linear`)).toMatchObject({ teamId: "team-1", status: "active" });
    await section.getByRole("button", { name: "Disconnect" }).click();
    await section.getByRole("form", { name: "Connect Linear" }).waitFor();
  });
});
