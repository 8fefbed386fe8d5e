import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp, loadConfig, setupCode, setupLink } from "@tidings/server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumAvailable, launchChromium } from "./browser.js";

const ADMIN_TOKEN = "e2e-evidence-admin-token-0123456789";
const OWNER = { name: "Eve Evidence", email: "eve@evidence.example", password: "correct horse battery staple" };

type Detail = { voteCount: number; feedback: { submissionId: string; voterPublicId: string | null }[]; voters: { publicId: string; addedByTeam: boolean; note: string | null }[] };

describe.skipIf(!chromiumAvailable())("dashboard feedback links and votes on behalf in Chromium", () => {
  let baseUrl = "";
  let close: () => Promise<void> = async () => {};
  let browser: Browser;
  let page: Page;
  const state = { wsId: "", appId: "", appKey: "", rex: "" };

  const consoleApi = async <T,>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}/api/v1/console${url}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const newRequest = async (title: string) => (await consoleApi<{ id: string }>("POST", `/workspaces/${state.wsId}/feature-requests`, { appId: state.appId, title })).id;
  const detail = (id: string) => consoleApi<Detail>("GET", `/workspaces/${state.wsId}/feature-requests/${id}`);
  const sendFeedback = async (userToken: string, title: string, description: string) => {
    const res = await fetch(`${baseUrl}/api/v1/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-user-token": userToken },
      body: JSON.stringify({ appKey: state.appKey, platform: "web", title, description, reporterEmail: `${userToken}@customer.example` }),
    });
    expect(res.status).toBe(201);
  };
  const shot = async (name: string) => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`dashboard-evidence-${name}.png`, ARTIFACTS).pathname, fullPage: true });
  };
  const openRequest = async (id: string, title: string) => {
    await page.goto(`${baseUrl}/admin/w/${state.wsId}/a/${state.appId}/requests/${id}`);
    await page.getByRole("heading", { name: title, level: 1 }).waitFor();
  };

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-evidence-e2e-"));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", TIDINGS_DEMO: "0" });
    const app = await buildApp({ ...config, adminToken: ADMIN_TOKEN }, { logger: false, jobIntervalMs: 0 });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    if (address === null || typeof address === "string") throw new Error("no TCP address");
    baseUrl = `http://127.0.0.1:${address.port}`;
    const code = await setupCode(app.ctx);
    close = async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(8000);
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(setupLink(baseUrl, code));
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByLabel("Workspace name").fill("Evidence");
    await page.getByRole("button", { name: "Create owner account" }).click();
    await page.getByLabel("App name").fill("Evidence Notes");
    await page.getByRole("button", { name: "Create app" }).click();
    await page.getByRole("heading", { name: "Settings of Evidence Notes" }).waitFor();
    const match = /\/admin\/w\/(ws_[^/]+)\/a\/(app_[^/]+)\/settings/.exec(page.url());
    state.wsId = match?.[1] ?? "";
    state.appId = match?.[2] ?? "";
    state.appKey = (await page.getByTestId("app-key").textContent()) ?? "";
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await close();
  }, 60_000);

  it("links a feedback item to a request picked by search, lists it with its quote on the request, and unlinks it there", async () => {
    const id = await newRequest("Offline mode");
    await newRequest("Dark theme");
    await sendFeedback("rex", "Works on the train?", "I lose everything when the train goes into a tunnel, please keep my notes offline.");

    await page.getByRole("link", { name: "Feedback" }).click();
    await page.getByRole("button", { name: /Works on the train\?/ }).click();
    const sidebar = page.getByTestId("submission-detail");
    await sidebar.getByRole("button", { name: "Link to request" }).click();
    await sidebar.getByLabel("Search").fill("offline");
    await sidebar.getByRole("button", { name: "Search" }).click();
    await sidebar.getByRole("button", { name: "Link to “Dark theme”" }).waitFor({ state: "detached" });
    await sidebar.getByRole("button", { name: "Link to “Offline mode”" }).click();
    await page.getByText("Feedback linked.").waitFor();
    await sidebar.getByRole("link", { name: "Offline mode" }).waitFor();

    const linked = await detail(id);
    expect(linked.feedback).toHaveLength(1);
    // The identified reporter counts as a voter.
    expect(linked.voteCount).toBe(1);
    state.rex = linked.feedback[0]!.voterPublicId ?? "";

    await sidebar.getByRole("link", { name: "Offline mode" }).click();
    await page.getByRole("heading", { name: "Offline mode", level: 1 }).waitFor();
    const evidence = page.getByTestId("linked-feedback");
    expect(await evidence.locator("blockquote").innerText()).toBe("I lose everything when the train goes into a tunnel, please keep my notes offline.");
    expect(await evidence.innerText()).toContain("rex@customer.example");
    await shot("linked");
    await evidence.getByRole("button", { name: "Unlink “Works on the train?”" }).click();
    await page.getByText("No feedback is linked to this request.").waitFor();
    expect(await detail(id)).toMatchObject({ feedback: [], voteCount: 0 });
  });

  it("turns a feedback item into a new request linked to it", async () => {
    await sendFeedback("sam", "Export to PDF", "Our auditors want PDFs.");
    await page.getByRole("link", { name: "Feedback" }).click();
    await page.getByRole("button", { name: /Export to PDF/ }).click();
    const sidebar = page.getByTestId("submission-detail");
    await sidebar.getByRole("button", { name: "Turn into request" }).click();
    await page.getByText("A request was created from this feedback.").waitFor();
    await sidebar.getByRole("link", { name: "Export to PDF" }).click();
    await page.getByRole("heading", { name: "Export to PDF", level: 1 }).waitFor();
    await page.getByTestId("linked-feedback").getByText("Our auditors want PDFs.").waitFor();
  });

  it("votes on a customer's behalf: an unknown email shows the server's refusal in the form, a known user's vote shows as the team's", async () => {
    const id = await newRequest("Shared notebooks");
    await openRequest(id, "Shared notebooks");
    const form = page.getByRole("form", { name: "Vote on behalf" });
    await form.getByLabel("Email", { exact: true }).fill("nobody@nowhere.example");
    await form.getByRole("button", { name: "Add vote" }).click();
    await form.getByRole("alert").getByText("No end user of this app has email nobody@nowhere.example").waitFor();
    expect((await detail(id)).voteCount).toBe(0);
    await shot("on-behalf-unknown");

    // Rex is known: his feedback made him an end user of the app.
    const rex = state.rex;
    await form.getByLabel("Customer").selectOption("endUserId");
    await form.getByLabel("End user id", { exact: true }).fill(rex);
    await form.getByLabel("Note (why they want it)").fill("Asked on the renewal call");
    await form.getByRole("button", { name: "Add vote" }).click();
    await form.getByText(`Vote added for ${rex}.`).waitFor();
    const voters = page.getByTestId("voters");
    await voters.getByTestId("added-by-team").getByText("added by the team: Asked on the renewal call").waitFor();
    expect((await detail(id)).voters).toMatchObject([{ publicId: rex, addedByTeam: true, note: "Asked on the renewal call" }]);
  });
});
