import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp, loadConfig } from "@tidings/server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumAvailable, launchChromium, stripedPng } from "./browser.js";

const ADMIN_TOKEN = "e2e-dashboard-admin-token-0123456789";
const OWNER = { name: "Olivia Owner", email: "olivia@acme.example", password: "correct horse battery staple" };

describe.skipIf(!chromiumAvailable())("admin dashboard in Chromium", () => {
  let baseUrl = "";
  let close: () => Promise<void> = async () => {};
  let browser: Browser;
  let page: Page;
  const state = { wsId: "", appId: "", appKey: "", firstSecret: "" };

  /** The operator's view of the data, to check what the UI did. */
  const consoleApi = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api/v1/console${url}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as Record<string, never>;
  };
  const shot = async (target: Page, name: string) => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await target.screenshot({ path: new URL(`dashboard-${name}.png`, ARTIFACTS).pathname, fullPage: true });
  };

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-dashboard-e2e-"));
    const app = await buildApp({ ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", TIDINGS_DEMO: "0" }), adminToken: ADMIN_TOKEN }, { logger: false, jobIntervalMs: 0 });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    if (address === null || typeof address === "string") throw new Error("no TCP address");
    baseUrl = `http://127.0.0.1:${address.port}`;
    close = async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.setDefaultTimeout(8000);
    page.on("dialog", (dialog) => void dialog.accept());
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await close();
  });

  it("serves the app shell with a self-only CSP and falls back to index.html for client routes", async () => {
    const res = await fetch(`${baseUrl}/admin/w/anything/apps`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    const js = await fetch(`${baseUrl}/admin/app.js`);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await fetch(`${baseUrl}/admin/missing.js`)).status).toBe(404);
  });

  it("walks first-run setup and lands on an empty apps list", async () => {
    const errors: string[] = [];
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await page.goto(`${baseUrl}/admin/`);
    await page.getByRole("heading", { name: "Welcome to Tidings" }).waitFor();
    // Validation happens before sending.
    await page.getByRole("button", { name: "Create owner account" }).click();
    await page.getByText("Enter an email address.").waitFor();
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByLabel("Workspace name").fill("Acme");
    await page.getByRole("button", { name: "Create owner account" }).click();
    await page.getByText("No apps yet").waitFor();
    expect(errors.filter((e) => e.includes("Content Security Policy"))).toEqual([]);
    const me = (await consoleApi("GET", "/workspaces")) as unknown;
    void me;
  });

  it("creates an app and shows its key, snippet and secret", async () => {
    await page.getByLabel("App name").fill("Acme Notes");
    await page.getByRole("button", { name: "Create app" }).click();
    await page.getByRole("heading", { name: "Settings of Acme Notes" }).waitFor();
    state.appKey = (await page.getByTestId("app-key").textContent()) ?? "";
    expect(state.appKey).toMatch(/^app_/);
    expect(await page.getByTestId("snippet").textContent()).toContain(state.appKey);
    await page.getByRole("button", { name: "Reveal" }).click();
    state.firstSecret = (await page.getByTestId("signing-secret").textContent()) ?? "";
    expect(state.firstSecret).toMatch(/^tsk_/);
    const match = /\/admin\/w\/(ws_[^/]+)\/a\/(app_[^/]+)\/settings/.exec(page.url());
    state.wsId = match?.[1] ?? "";
    state.appId = match?.[2] ?? "";
    await shot(page, "app-created");
  });

  it("approves a pending request in bulk and moves it to Shipped", async () => {
    const proposed = await fetch(`${baseUrl}/api/v1/feature-requests`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-user-token": "user-e2e-1" },
      body: JSON.stringify({ appKey: state.appKey, title: "Offline mode", description: "Let me write on the train." }),
    });
    expect((await proposed.json()).pending).toBe(true);

    await page.getByRole("link", { name: "Feature requests" }).click();
    await page.getByRole("tab", { name: "Pending (1)" }).waitFor();
    await page.getByRole("checkbox", { name: "Offline mode" }).check();
    await page.getByRole("button", { name: "Approve selected" }).click();
    await page.getByText("1 request updated.").waitFor();
    await page.getByText("Nothing waits for review.").waitFor();

    await page.getByRole("tab", { name: "All requests" }).click();
    await page.getByRole("combobox", { name: "Move to: Offline mode" }).selectOption({ label: "Shipped" });
    await page.getByRole("link", { name: "Roadmap" }).click();
    await page.getByTestId("board-shipped").getByText("Offline mode").waitFor();
    const list = await consoleApi("GET", `/workspaces/${state.wsId}/feature-requests?appId=${state.appId}`);
    expect((list as unknown as { requests: { columnSlug: string; moderation: string }[] }).requests[0]).toMatchObject({ columnSlug: "shipped", moderation: "approved" });
    await shot(page, "roadmap");
  });

  it("triages a feedback item with an image attachment", async () => {
    const form = new FormData();
    form.set("appKey", state.appKey);
    form.set("file", new Blob([new Uint8Array(await stripedPng())], { type: "image/png" }), "screenshot.png");
    const upload = (await (await fetch(`${baseUrl}/api/v1/uploads/images`, { method: "POST", body: form })).json()) as { uploadId: string };
    expect(upload.uploadId).toBeTruthy();
    const sent = await fetch(`${baseUrl}/api/v1/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ appKey: state.appKey, platform: "ios", title: "Export button does nothing", description: "Tapped it twice.", uploadIds: [upload.uploadId], metadata: { screen: "Export" } }),
    });
    expect(sent.status).toBe(201);

    await page.getByRole("link", { name: "Feedback" }).click();
    await page.getByRole("button", { name: /Export button does nothing/ }).click();
    const detail = page.getByTestId("submission-detail");
    const image = detail.getByRole("img", { name: "screenshot.png" });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(96);
    await detail.getByLabel("Status").selectOption("resolved");
    await page.getByText("Saved.").waitFor();
    await shot(page, "feedback");
    const resolved = await consoleApi("GET", `/workspaces/${state.wsId}/submissions?triageStatus=resolved`);
    expect((resolved as unknown as { total: number }).total).toBe(1);
  });

  it("rotates the signing secret", async () => {
    await page.getByRole("link", { name: "Apps" }).click();
    await page.getByRole("link", { name: /Settings — Acme Notes/ }).click();
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByText("New signing secret created").waitFor();
    const rotated = (await page.getByTestId("signing-secret").textContent()) ?? "";
    expect(rotated).toMatch(/^tsk_/);
    expect(rotated).not.toBe(state.firstSecret);
  });

  it("invites a member whose settings change the server refuses", async () => {
    await page.getByRole("link", { name: "Members" }).click();
    await page.getByLabel("Email").fill("mia@acme.example");
    await page.getByRole("button", { name: "Invite" }).click();
    const link = (await page.getByTestId("invite-link").textContent()) ?? "";
    expect(link).toContain("/admin/accept-invite#token=inv_");

    // A tablet-width window for the member.
    const member = await browser.newPage({ viewport: { width: 820, height: 1100 } });
    member.setDefaultTimeout(8000);
    await member.goto(link.replace(/^http:\/\/[^/]+/, baseUrl));
    await member.getByRole("heading", { name: "Join Acme" }).waitFor();
    await member.getByLabel("Your name").fill("Mia Member");
    await member.getByLabel("Password").fill("mia's own long password");
    await member.getByRole("button", { name: "Accept invitation" }).click();
    await member.getByText("Mia Member · Member").waitFor();
    await member.goto(`${baseUrl}/admin/w/${state.wsId}/a/${state.appId}/settings`);
    await member.getByRole("heading", { name: "Settings of Acme Notes" }).waitFor();
    await member.getByLabel("Public (roadmap").uncheck();
    await member.getByRole("button", { name: "Save" }).click();
    await member.getByText("Your role (member) does not allow this action").waitFor();
    await shot(member, "member-refused");
    const settings = await consoleApi("GET", `/workspaces/${state.wsId}/apps/${state.appId}`);
    expect((settings as unknown as { allowPublic: boolean }).allowPublic).toBe(true);

    // Signing out ends the session: the API refuses the old cookie and the UI shows sign-in.
    await member.getByRole("button", { name: "Sign out" }).click();
    await member.getByRole("heading", { name: "Sign in to Tidings" }).waitFor();
    await member.close();
  });

  it("writes a changelog entry with a preview, publishes it, and keeps an unsaved draft across a lost session", async () => {
    await page.getByRole("link", { name: "Changelog" }).click();
    await page.getByLabel("Title").fill("Offline mode is here");
    await page.getByLabel("Body (Markdown)").fill("## Write anywhere\n\nNotes now sync when you are back **online**.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("heading", { name: "Write anywhere" }).waitFor();
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Published. Subscribers are being mailed.").waitFor();
    await page.getByText(/^Published · mail/).waitFor();

    await page.getByLabel("Title").fill("Unsaved thoughts");
    await page.context().clearCookies();
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Your session has ended").waitFor();
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByLabel("Title").inputValue()).toBe("Unsaved thoughts");
    await shot(page, "changelog");
  });

  it("returns to sign-in when the session is lost, then carries on where it was", async () => {
    await page.context().clearCookies();
    await page.getByRole("link", { name: "Feedback" }).click();
    await page.getByText("Your session has ended").waitFor();
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Feedback inbox" }).waitFor();
  });
});
