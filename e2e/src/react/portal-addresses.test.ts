import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "../client/real-server.js";
import { linkIn, startInbox, type Inbox } from "../dashboard/smtp.js";
import { artifact, chromiumAvailable, launchChromium } from "./browser.js";

const run = chromiumAvailable();
let server: RealServer;
let browser: Browser;
let inbox: Inbox;

beforeAll(async () => {
  if (!run) return;
  inbox = await startInbox();
  server = await startRealServer({ SMTP_URL: inbox.url });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await inbox?.close();
});

/** The id of a demo request, found through the public search. */
async function demoRequestId(title: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/api/v1/feature-requests?appKey=app_demo&q=${encodeURIComponent(title)}`);
  const body = (await res.json()) as { requests: { id: string; title: string }[] };
  const found = body.requests.find((r) => r.title === title);
  if (found === undefined) throw new Error(`no demo request ${title}`);
  return found.id;
}

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`[page error] ${error.message}`));
  await page.goto(`${server.baseUrl}${path}`);
  // The server-rendered content is replaced once the app has rendered.
  await page.locator(".td-ssr").waitFor({ state: "detached" });
  return page;
}

describe.skipIf(!run)("the portal's addresses in Chromium", () => {
  it("holds a request's title, votes and card tags in the HTML itself, before any script", async () => {
    const id = await demoRequestId("Dark mode");
    const res = await fetch(`${server.baseUrl}/p/app_demo/requests/${id}-dark-mode`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain("<title>Dark mode · Demo app</title>");
    expect(html).toMatch(/<span class="td-votes">\d+ votes<\/span>/);
    expect(html).toContain('<meta property="og:title" content="Dark mode · Demo app">');
    expect(html).toContain("Would love this for late-night sessions.");
  });

  it("opens a request's address cold, from its id alone, at its canonical address, where a visitor asks for updates", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
    const id = await demoRequestId("Dark mode");
    const page = await open(context, `/p/app_demo/requests/${id}`);
    expect(new URL(page.url()).pathname).toBe(`/p/app_demo/requests/${id}-dark-mode`);
    await page.getByRole("heading", { name: "Dark mode", level: 2 }).waitFor();
    await page.getByText("Would love this for late-night sessions.").waitFor();
    expect(await page.getByRole("tab", { name: "Requests" }).getAttribute("aria-selected")).toBe("true");

    // Following it: the address is confirmed by mail before anything else is sent to it.
    const updates = page.getByRole("region", { name: "Get updates on this request" });
    await updates.getByRole("textbox", { name: "Email address" }).fill("follower@example.com");
    await page.screenshot({ path: artifact("portal-follow-request.png"), fullPage: true });
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/feature-requests/${id}/subscription`) && r.request().method() === "POST"),
      updates.getByRole("button", { name: "Get updates" }).click(),
    ]);
    expect(await answer.json()).toEqual({ following: false, pending: true });
    expect(await updates.getByRole("status").innerText()).toBe("Check your inbox to confirm.");
    await expect.poll(() => inbox.to("follower@example.com").length, { timeout: 10_000 }).toBe(1);
    const mail = inbox.to("follower@example.com")[0];
    expect(`${mail?.subject ?? ""} ${mail?.text ?? ""}`).toContain("Dark mode");
    expect(linkIn(mail, "/request-updates/confirm?token=")).toContain(`/apps/app_demo/request-updates/confirm?token=`);
    // Stopping takes the pending follow back: the control offers to follow again.
    await updates.getByRole("button", { name: "Stop updates" }).click();
    await updates.getByRole("button", { name: "Get updates" }).waitFor();
    await context.close();
  });

  it("walks between the list and a request with the browser's back and forward buttons", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
    const page = await open(context, "/p/app_demo/requests");
    const search = page.getByRole("searchbox", { name: "Search requests" });
    await search.waitFor();
    await page.getByRole("button", { name: "Apple Watch app", exact: true }).click();
    await page.getByText("Complications would be great.").waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/p\/app_demo\/requests\/fr_[0-9a-z]{26}-apple-watch-app$/);
    await expect.poll(() => page.title()).toBe("Apple Watch app · Demo app");
    const detail = page.url();

    await page.goBack();
    await search.waitFor();
    expect(new URL(page.url()).pathname).toBe("/p/app_demo/requests");
    await expect.poll(() => page.getByText("Complications would be great.").count()).toBe(0);

    await page.goForward();
    await page.getByText("Complications would be great.").waitFor();
    expect(page.url()).toBe(detail);

    // The detail's own Back link goes back too, and the changelog tab has its own address.
    await page.getByRole("button", { name: "← Back" }).click();
    await search.waitFor();
    await page.getByRole("tab", { name: "What's new" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/p/app_demo/changelog");
    await page.goBack();
    await search.waitFor();
    await context.close();
  });

  it('lists "Dark mode" while "dark mo" is typed in the compose sheet, before anything is sent', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
    const page = await open(context, "/p/app_demo/requests");
    const proposals: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/v1/feature-requests") proposals.push(request.url());
    });
    await page.getByRole("button", { name: "Suggest a feature" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Title").pressSequentially("dark mo", { delay: 30 });
    const similar = dialog.getByRole("list", { name: "Already suggested? Vote for it instead:" });
    await similar.getByRole("button", { name: "Dark mode" }).waitFor();
    expect(proposals).toEqual([]);

    // Choosing it opens the request, where the visitor can vote instead.
    await similar.getByRole("button", { name: "Dark mode" }).click();
    await page.getByText("Would love this for late-night sessions.").waitFor();
    expect(new URL(page.url()).pathname).toMatch(/-dark-mode$/);
    expect(proposals).toEqual([]);
    await context.close();
  });
});
