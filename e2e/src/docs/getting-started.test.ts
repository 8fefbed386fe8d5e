import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, loadConfig, setupCode, setupLink } from "@tidings/server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, chromiumAvailable, launchChromium } from "../react/browser.js";
import { guideSample, serveSample, withConstants, type SamplePage } from "./guide-sample.js";

const ADMIN_TOKEN = "e2e-getting-started-admin-token-0123";
const OWNER = { name: "Grace Guide", email: "grace@example.com", password: "a long and good password" };
/** `TIDINGS_DOCS_SCREENSHOTS=1` (npm run docs:screenshots) refreshes the guide's images; otherwise they go to e2e/artifacts. */
const SHOTS = process.env.TIDINGS_DOCS_SCREENSHOTS === "1" ? fileURLToPath(new URL("../../../docs/images/", import.meta.url)) : ARTIFACTS;

describe.skipIf(!chromiumAvailable())("docs/getting-started.md, followed in Chromium", () => {
  let baseUrl = "";
  let browser: Browser;
  let dashboard: Page;
  let sample: SamplePage | undefined;
  let close: () => Promise<void> = async () => {};
  let appKey = "";
  const shot = async (page: Page, name: string) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `getting-started-${name}.png`) });
  };

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-getting-started-"));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    const app = await buildApp({ ...config, adminToken: ADMIN_TOKEN }, { logger: false, jobIntervalMs: 0 });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    if (address === null || typeof address === "string") throw new Error("no TCP address");
    baseUrl = `http://127.0.0.1:${address.port}`;
    const code = await setupCode(app.ctx);
    browser = await launchChromium();
    dashboard = await browser.newPage({ viewport: { width: 980, height: 600 } });
    dashboard.setDefaultTimeout(8000);
    await dashboard.goto(setupLink(baseUrl, code));
    close = async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(async () => {
    await sample?.close();
    await browser?.close();
    await close();
  });

  it("step 2: the setup link makes the owner, and a new app shows its key and signing secret", async () => {
    await dashboard.getByRole("heading", { name: "Welcome to Tidings" }).waitFor();
    await dashboard.getByLabel("Your name").fill(OWNER.name);
    await dashboard.getByLabel("Email").fill(OWNER.email);
    await dashboard.getByLabel("Password").fill(OWNER.password);
    await dashboard.getByLabel("Workspace name").fill("My company");
    await dashboard.getByRole("button", { name: "Create owner account" }).click();
    await dashboard.getByLabel("App name").fill("My app");
    await dashboard.getByRole("button", { name: "Create app" }).click();
    await dashboard.getByRole("heading", { name: "Settings of My app" }).waitFor();
    appKey = (await dashboard.getByTestId("app-key").textContent()) ?? "";
    expect(appKey).toMatch(/^app_/);
    await shot(dashboard, "app");
  });

  it("steps 3 and 4: the guide's page, built from its code, sends feedback that the inbox shows", async () => {
    const code = withConstants(guideSample("docs/getting-started.md", "getting-started"), { TIDINGS_URL: baseUrl, APP_KEY: appKey });
    sample = await serveSample(code, path.join(ARTIFACTS, "getting-started-sample"), "feedback");
    const page = await browser.newPage({ viewport: { width: 560, height: 700 } });
    page.setDefaultTimeout(8000);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(sample.url);
    await page.getByLabel("Title").fill("The export button does nothing");
    await page.getByLabel("Details").fill("I pressed it twice on the reports page and nothing downloaded.");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByText("Thank you! Your feedback was sent.").waitFor();
    expect(errors).toEqual([]);
    await shot(page, "sent");

    await dashboard.getByRole("link", { name: "Feedback" }).click();
    const row = dashboard.getByRole("button", { name: /The export button does nothing/ });
    await row.waitFor();
    await shot(dashboard, "inbox");
    await row.click();
    const detail = dashboard.getByTestId("submission-detail");
    await detail.getByText("I pressed it twice on the reports page and nothing downloaded.").waitFor();
    expect(await detail.textContent()).toContain("web");
  });
});
