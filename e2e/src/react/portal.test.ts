import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "../client/real-server.js";
import { artifact, chromiumAvailable, launchChromium, PNG_BASE64 } from "./browser.js";

const run = chromiumAvailable();
let server: RealServer;
let browser: Browser;

beforeAll(async () => {
  if (!run) return;
  server = await startRealServer();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openPortal(context: BrowserContext, appKey = "app_demo", hash = ""): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`[page error] ${error.message}`));
  await page.goto(`${server.baseUrl}/p/${appKey}${hash}`);
  return page;
}

describe.skipIf(!run)("the public portal in Chromium", () => {
  it("shows the demo board with a tab per visible column", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, locale: "en-US" });
    const page = await openPortal(context);
    await page.getByRole("heading", { name: "Demo app" }).waitFor();
    const columns = page.getByRole("tablist", { name: "Roadmap" }).getByRole("tab");
    await columns.first().waitFor();
    expect(await columns.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("Planned"), expect.stringContaining("Shipped")]));
    await page.getByRole("tab", { name: /Shipped/ }).click();
    await page.getByText("Dark mode").waitFor();
    await page.screenshot({ path: artifact("portal-roadmap.png"), fullPage: true });
    await context.close();
  });

  it("searches with pacing, votes and un-votes, and opens a request with its comments", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
    const page = await openPortal(context, "app_demo", "#requests");
    const searches: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/v1/feature-requests" && url.searchParams.has("q")) searches.push(url.searchParams.get("q")!);
    });
    await page.getByText("Offline mode").waitFor();
    const search = page.getByRole("searchbox", { name: "Search requests" });
    await search.fill("export");
    await page.waitForTimeout(400);
    await search.fill("export csv");
    await page.getByText("Export data to CSV").waitFor();
    await expect.poll(() => page.getByRole("listitem").filter({ hasText: "Offline mode" }).count()).toBe(0);
    // The second query came within 2.5 s of the first search, so it waits its turn.
    expect(searches).toEqual(["export"]);
    await expect.poll(() => searches, { timeout: 5000 }).toEqual(["export", "export csv"]);

    await search.fill("");
    const vote = page.getByRole("button", { name: /Vote for Offline mode/ });
    await vote.waitFor();
    const before = Number(await vote.innerText().then((t) => t.replace(/\D/g, "")));
    await vote.click();
    const unvote = page.getByRole("button", { name: /Remove your vote for Offline mode/ });
    await expect.poll(() => unvote.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(async () => Number((await unvote.innerText()).replace(/\D/g, ""))).toBe(before + 1);
    await unvote.click();
    await expect.poll(async () => Number((await page.getByRole("button", { name: /Vote for Offline mode/ }).innerText()).replace(/\D/g, ""))).toBe(before);

    await page.getByRole("button", { name: "Apple Watch app", exact: true }).click();
    await page.getByText("Complications would be great.").waitFor();
    await page.getByRole("button", { name: "Reply to Sam" }).click();
    await page.getByRole("textbox", { name: "Reply to Sam" }).fill("A reply from the browser test");
    await page.getByRole("button", { name: "Post" }).first().click();
    await page.getByText("A reply from the browser test").waitFor();
    await page.screenshot({ path: artifact("portal-request-detail.png"), fullPage: true });
    await context.close();
  });

  it("proposes a request and shows it pending review", async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await openPortal(context, "app_demo", "#requests");
    await page.getByRole("button", { name: "Suggest a feature" }).click();
    const dialog = page.getByRole("dialog", { name: "Suggest a feature" });
    await dialog.getByRole("textbox", { name: "Title" }).fill("Keyboard shortcuts from the browser test");
    await dialog.getByRole("textbox", { name: "Details" }).fill("Cmd+K to search.");
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/v1/feature-requests") && r.request().method() === "POST"),
      dialog.getByRole("button", { name: "Submit" }).click(),
    ]);
    const created = (await answer.json()) as { pending: boolean };
    await dialog.getByText(created.pending ? "Thanks! Your request is waiting for review." : "Thanks! Your request was submitted.").waitFor();
    await page.screenshot({ path: artifact("portal-propose.png") });
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await page.getByRole("button", { name: "Keyboard shortcuts from the browser test" }).waitFor();
    const row = page.getByRole("listitem").filter({ hasText: "Keyboard shortcuts from the browser test" });
    expect(await row.getByText("Pending review").count()).toBe(created.pending ? 1 : 0);
    expect(await row.getByRole("button", { name: /Your request/ }).count()).toBe(1);
    await context.close();
  });

  it("submits feedback with a pasted screenshot", async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await openPortal(context, "app_demo", "#feedback");
    await page.getByRole("textbox", { name: "Title" }).fill("The chart overlaps on small screens");
    await page.getByRole("textbox", { name: "Details" }).fill("See the screenshot.");
    await page.getByRole("textbox", { name: "Details" }).evaluate((el, png) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "", { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, PNG_BASE64);
    await page.getByText(/^screenshot-\d+\.png attached$/).waitFor({ state: "attached" });
    await page.screenshot({ path: artifact("portal-feedback.png"), fullPage: true });
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/v1/feedback") && r.request().method() === "POST"),
      page.getByRole("button", { name: "Send" }).click(),
    ]);
    expect(answer.status()).toBe(201);
    const sent = answer.request().postDataJSON() as { title: string; platform: string; attachments: { kind: string }[] };
    expect(sent).toMatchObject({ title: "The chart overlaps on small screens", platform: "web", attachments: [{ kind: "image" }] });
    await page.getByText("Thank you! Your feedback was sent.").waitFor();
    // Rule 11's other half: after success the draft is cleared.
    expect(await page.getByRole("textbox", { name: "Title" }).inputValue()).toBe("");
    await context.close();
  });

  it("switches theme and works at phone width", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    const page = await openPortal(context, "app_demo", "#requests");
    await page.getByText("Offline mode").waitFor();
    await page.getByRole("combobox", { name: "Theme" }).selectOption("dark");
    expect(await page.locator(".td-portal").getAttribute("data-theme")).toBe("dark");
    const background = await page.locator(".td-portal").evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe("rgb(15, 17, 21)");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: artifact("portal-phone-dark.png"), fullPage: true });
    await page.getByRole("combobox", { name: "Theme" }).selectOption("sunset");
    await page.getByRole("combobox", { name: "Language" }).selectOption("fr");
    await page.getByRole("tab", { name: "Suggestions" }).waitFor();
    await page.screenshot({ path: artifact("portal-phone-sunset-fr.png"), fullPage: true });
    await context.close();
  });

  it("hides a disabled surface and answers unknown apps with the not-found page", async () => {
    const app = await server.createApp("portal-flags");
    await app.settings({ sdk: { features: { feedback: false } } });
    const context = await browser.newContext();
    const page = await openPortal(context, app.appKey);
    await page.getByRole("tab", { name: "Requests" }).waitFor();
    // While the config loads every surface shows (rule 6); once it has loaded the tab goes away.
    await page.getByRole("tab", { name: "Feedback" }).waitFor({ state: "detached", timeout: 5000 });
    expect(await page.getByRole("tab", { name: "Feedback" }).count()).toBe(0);
    const missing = await context.newPage();
    const response = await missing.goto(`${server.baseUrl}/p/app_doesnotexist`);
    expect(response?.status()).toBe(404);
    await missing.getByRole("heading", { name: "Not found" }).waitFor();
    await context.close();
  });

  it("opens the widget on a plain page of another origin", async () => {
    const site = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><html><body><h1>Acme blog</h1><p>Plain page.</p><script src="${server.baseUrl}/widget.js" data-app-key="app_demo" data-tab="requests" async></script></body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const { port } = site.address() as AddressInfo;
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByRole("button", { name: "Feedback" }).click();
    const frame = page.frameLocator('iframe[title="Feedback"]');
    await frame.getByText("Offline mode").waitFor();
    await page.screenshot({ path: artifact("widget-open.png") });
    await page.keyboard.press("Escape");
    await context.close();
    await new Promise((resolve) => site.close(resolve));
  });
});
