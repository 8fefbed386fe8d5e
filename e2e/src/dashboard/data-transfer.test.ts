import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp, DEMO_APP_KEY, loadConfig, setupCode, setupLink } from "@tidings/server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "./browser.js";

const ADMIN_TOKEN = "e2e-data-transfer-admin-token-0123456789";
const OWNER = { name: "Ida Importer", email: "ida@moving.example", password: "correct horse battery staple" };

describe.skipIf(!chromiumAvailable())("dashboard export and import in Chromium", () => {
  const dirs: string[] = [];
  let closers: (() => Promise<unknown>)[] = [];
  let baseUrl = "";
  let archive = "";
  let browser: Browser;
  let page: Page;

  const server = async (demo: boolean) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-data-e2e-"));
    dirs.push(dataDir);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", TIDINGS_DEMO: demo ? "1" : "0" });
    const app = await buildApp({ ...config, adminToken: ADMIN_TOKEN }, { logger: false, jobIntervalMs: 0 });
    closers.push(() => app.close());
    return app;
  };

  beforeAll(async () => {
    // The archive comes from another server: its demo app, exported through the console API.
    const source = await server(true);
    const me = await source.inject({ method: "GET", url: "/api/v1/console/me", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const demoWs = (me.json() as { workspaces: { workspace: { id: string; slug: string } }[] }).workspaces.find((w) => w.workspace.slug === "demo")!.workspace.id;
    archive = (await source.inject({ method: "GET", url: `/api/v1/console/workspaces/${demoWs}/export`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).body;
    expect(archive.split("\n")[0]).toContain('"type":"tidings-archive"');

    const target = await server(false);
    await target.listen({ port: 0, host: "127.0.0.1" });
    const address = target.server.address();
    if (address === null || typeof address === "string") throw new Error("no TCP address");
    baseUrl = `http://127.0.0.1:${address.port}`;
    const code = await setupCode(target.ctx);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
    page.setDefaultTimeout(8000);
    await page.goto(setupLink(baseUrl, code));
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByLabel("Workspace name").fill("Moving in");
    await page.getByRole("button", { name: "Create owner account" }).click();
    await page.getByText("No apps yet").waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    for (const close of closers) await close();
    closers = [];
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("uploads an archive with a progress display, then lists the imported app with its downloads", async () => {
    await page.getByRole("link", { name: "Export and import" }).click();
    await page.getByRole("heading", { name: "Export and import" }).waitFor();
    // A slow uplink, so the upload's progress is on screen long enough to be seen.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: Math.ceil(archive.length / 2) });
    await page.getByLabel("Archive file").setInputFiles({ name: "demo.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(archive) });
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByRole("progressbar", { name: "Upload progress" }).waitFor();
    await page.getByText(/Uploading… \d+%/).waitFor();
    await page.getByText(/^Imported \d+ rows \(0 already here\)\./).waitFor({ timeout: 20_000 });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect(await page.getByRole("progressbar", { name: "Upload progress" }).count()).toBe(0);
    await page.getByTestId("exports").getByText("Demo app").waitFor();

    // The app's archive downloads as a file, and it is the same data that went in.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Archive (.jsonl)" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^demo-app-archive-\d{4}-\d{2}-\d{2}\.jsonl$/);
    const downloaded = fs.readFileSync((await download.path())!, "utf8");
    const header = JSON.parse(downloaded.split("\n")[0]!) as { scope: unknown };
    expect(header.scope).toEqual({ kind: "app", appKey: DEMO_APP_KEY });
    const counts = (text: string) => (JSON.parse(text.trimEnd().split("\n").at(-1)!) as { counts: Record<string, number> }).counts;
    const { workspaces: _w, ...imported } = counts(downloaded);
    const { workspaces: _s, ...original } = counts(archive);
    expect(imported).toEqual(original);
  }, 60_000);

  it("shows why an archive is refused, with its line", async () => {
    await page.getByLabel("Archive file").setInputFiles({ name: "bad.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from("not json\n") });
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByText("line 1: not valid JSON").waitFor();
  });
});
