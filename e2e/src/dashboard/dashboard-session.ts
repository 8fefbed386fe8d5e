import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp, loadConfig, setupCode, setupLink } from "@tidings/server";
import type { Browser, Page } from "playwright-core";
import { ARTIFACTS, launchChromium } from "./browser.js";

/** The first owner of a fresh server, as they fill in the setup page. */
export interface DashboardOwner {
  name: string;
  email: string;
  password: string;
}

/** A real server on a loopback port with an owner signed in to its dashboard in Chromium. */
export interface DashboardSession {
  baseUrl: string;
  browser: Browser;
  /** Signed in, on the new app's settings page. */
  page: Page;
  wsId: string;
  appId: string;
  appKey: string;
  /** The operator's view of the data (the instance admin token), to check what the UI did. */
  consoleApi<T>(method: string, url: string, body?: unknown): Promise<T>;
  /** A full-page screenshot into the artifacts folder, named after the session. */
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a server on an empty data folder (SQLite, no demo app), opens its setup link in
 * Chromium and goes through it as a new owner would: owner account, workspace, first app. The
 * browser tests of the dashboard each start from here.
 *
 * @example
 * ```ts
 * const dash = await openDashboard({ name: "segments", owner, workspace: "Fieldwork", app: "Field Notes" });
 * await dash.page.getByRole("link", { name: "Segments" }).click();
 * ```
 */
export async function openDashboard(options: {
  /** Names the admin token, the data folder and the screenshots. */
  name: string;
  owner: DashboardOwner;
  workspace: string;
  app: string;
  /** Further settings, as environment variables. */
  env?: Record<string, string>;
}): Promise<DashboardSession> {
  const adminToken = `e2e-${options.name}-admin-token-0123456789`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tidings-${options.name}-e2e-`));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", TIDINGS_DEMO: "0", ...options.env });
  const app = await buildApp({ ...config, adminToken }, { logger: false, jobIntervalMs: 0 });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const code = await setupCode(app.ctx);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(8000);
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto(setupLink(baseUrl, code));
  await page.getByLabel("Your name").fill(options.owner.name);
  await page.getByLabel("Email").fill(options.owner.email);
  await page.getByLabel("Password").fill(options.owner.password);
  await page.getByLabel("Workspace name").fill(options.workspace);
  await page.getByRole("button", { name: "Create owner account" }).click();
  await page.getByLabel("App name").fill(options.app);
  await page.getByRole("button", { name: "Create app" }).click();
  await page.getByRole("heading", { name: `Settings of ${options.app}` }).waitFor();
  const match = /\/admin\/w\/(ws_[^/]+)\/a\/(app_[^/]+)\/settings/.exec(page.url());
  return {
    baseUrl,
    browser,
    page,
    wsId: match?.[1] ?? "",
    appId: match?.[2] ?? "",
    appKey: (await page.getByTestId("app-key").textContent()) ?? "",
    async consoleApi<T>(method: string, url: string, body?: unknown): Promise<T> {
      const res = await fetch(`${baseUrl}/api/v1/console${url}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as T;
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    },
    async shot(name: string) {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: new URL(`dashboard-${options.name}-${name}.png`, ARTIFACTS).pathname, fullPage: true });
    },
    async close() {
      await browser.close();
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
