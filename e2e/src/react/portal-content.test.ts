// Browser tests of the portal against apps the tests configure through the console: the roadmap's
// Other tab, the changelog overlay's once-per-release rule, hostile release notes, the language
// switch, branding, and a submission through the built-in altcha verification.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "../client/real-server.js";
import { artifact, chromiumAvailable, launchChromium } from "./browser.js";

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

type TestApp = Awaited<ReturnType<RealServer["createApp"]>>;

/** Publishes a release note of `app` now. */
async function publishRelease(app: TestApp, input: { title: string; body: string; versionLabel?: string }): Promise<void> {
  await server.consoleCall("POST", `/workspaces/${app.wsId}/changelog`, { appId: app.appId, publishNow: true, ...input });
}

/** A page whose uncaught errors and dialogs fail the test instead of passing unnoticed. */
async function openPortal(context: BrowserContext, appKey: string, hash = ""): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(`${server.baseUrl}/p/${appKey}${hash}`);
  return { page, problems };
}

/**
 * Empties the browser's HTTP cache: public answers may be cached for 30 s, so this stands for a
 * visit after that (the server's own cache is invalidated by the console write).
 */
async function clearHttpCache(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  await cdp.detach();
}

/** Resolves once the portal fetched the app's changelog (the overlay decides after this answer). */
function changelogFetched(page: Page) {
  return page.waitForResponse((r) => new URL(r.url()).pathname.includes("/changelog") && r.request().method() === "GET");
}

describe.skipIf(!run)("the portal with configured apps", () => {
  it("shows a request of a hidden column under the roadmap's Other tab", async () => {
    const app = await server.createApp("portal-hidden-column");
    const column = (await server.consoleCall("POST", `/workspaces/${app.wsId}/apps/${app.appId}/columns`, {
      name: "Internal triage",
      isVisible: false,
    })) as unknown as { id: string };
    await server.consoleCall("POST", `/workspaces/${app.wsId}/feature-requests`, { appId: app.appId, title: "Request in a hidden column", columnId: column.id });
    await server.consoleCall("POST", `/workspaces/${app.wsId}/feature-requests`, { appId: app.appId, title: "Request in a visible column", columnSlug: "planned" });

    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, locale: "en-US" });
    const { page, problems } = await openPortal(context, app.appKey, "#roadmap");
    const tabs = page.getByRole("tablist", { name: "Roadmap" }).getByRole("tab");
    await tabs.first().waitFor();
    const names = await tabs.allInnerTexts();
    // The hidden column has no tab of its own; its request is under Other, the last tab.
    expect(names.some((n) => n.includes("Internal triage"))).toBe(false);
    expect(names.at(-1)).toMatch(/^Other\s*1$/);
    await page.getByRole("tab", { name: /^Other/ }).click();
    const panel = page.locator(".td-roadmap [role=tabpanel]").filter({ hasText: "Request in a hidden column" });
    await panel.waitFor();
    expect(await panel.getByText("Request in a visible column").count()).toBe(0);
    await page.screenshot({ path: artifact("portal-roadmap-other.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows the changelog overlay once per release: not after closing, not after a reload, again for a newer release", async () => {
    const app = await server.createApp("portal-overlay");
    await app.settings({ sdk: { changelogOverlay: { title: "Fresh from the team", subtitle: "Here is what changed" } } });
    await publishRelease(app, { title: "Faster sync", body: "Sync is **twice** as fast.", versionLabel: "1.1.0" });

    const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, locale: "en-US" });
    const { page, problems } = await openPortal(context, app.appKey, "#requests");
    const overlay = page.getByRole("dialog", { name: "Fresh from the team" });
    await overlay.waitFor();
    await overlay.getByText("Faster sync").waitFor();
    await page.screenshot({ path: artifact("portal-overlay.png") });
    await overlay.getByRole("button", { name: "Continue" }).click();
    await overlay.waitFor({ state: "detached" });

    // Reload: the release was marked seen, so the overlay stays closed once the changelog answered.
    const fetched = changelogFetched(page);
    await page.reload();
    await fetched;
    await page.getByRole("button", { name: "Suggest a feature" }).waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByRole("dialog").count()).toBe(0);

    // A newer release shows it again, with the new entry first.
    await publishRelease(app, { title: "Offline drafts", body: "Drafts survive a lost connection.", versionLabel: "1.2.0" });
    await clearHttpCache(context, page);
    await page.reload();
    await overlay.waitFor();
    expect(await overlay.locator("article h3").first().innerText()).toBe("Offline drafts");
    await overlay.getByRole("button", { name: "Continue" }).click();
    await overlay.waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("renders a hostile release note's text without running its script, handler or javascript: link", async () => {
    const app = await server.createApp("portal-xss");
    await publishRelease(app, {
      title: "Release with hostile notes",
      versionLabel: "2.0.0",
      body: [
        "Visible **safe** text survives.",
        "",
        "<script>window.__tidingsPwned = 'script'; alert('script')</script>",
        "",
        '<img src="https://tidings-e2e.invalid/x.png" onerror="window.__tidingsPwned = \'onerror\'; alert(\'onerror\')">',
        "",
        "[Click me](javascript:window.__tidingsPwned='link';alert('link'))",
        "",
        '<a href="javascript:window.__tidingsPwned=\'raw-link\'">Raw link</a>',
      ].join("\n"),
    });
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, locale: "en-US" });
    const { page, problems } = await openPortal(context, app.appKey, "#changelog");
    // The overlay shows the same release first; close it to see the What's new screen.
    const overlay = page.getByRole("dialog", { name: "What's new" });
    await overlay.waitFor();
    await overlay.getByText("Visible safe text survives.").waitFor();
    await overlay.getByRole("button", { name: "Continue" }).click();
    const notes = page.locator(".td-portal-main .td-markdown");
    await notes.getByText("Visible safe text survives.").waitFor();
    expect(await notes.locator("strong").innerText()).toBe("safe");
    // The sanitised HTML carries none of the three vectors…
    expect(await notes.locator("script").count()).toBe(0);
    expect(await notes.locator("[onerror]").count()).toBe(0);
    expect(await notes.locator('a[href^="javascript:" i]').count()).toBe(0);
    // …and nothing ran: no flag, no dialog, not even after clicking the links.
    for (const name of ["Click me", "Raw link"]) {
      const link = notes.getByText(name);
      if ((await link.count()) > 0) await link.click();
    }
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __tidingsPwned?: string }).__tidingsPwned)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.screenshot({ path: artifact("portal-whats-new.png"), fullPage: true });
    await context.close();
  });

  it("follows the browser's language and switches language from the picker", async () => {
    const app = await server.createApp("portal-locale");
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, locale: "de-DE" });
    const { page, problems } = await openPortal(context, app.appKey, "#requests");
    // locale="auto" picks German from the browser.
    await page.getByRole("tab", { name: "Wünsche" }).waitFor();
    await page.getByRole("button", { name: "Funktion vorschlagen" }).waitFor();
    expect(await page.getByRole("combobox", { name: "Sprache" }).inputValue()).toBe("de");
    // Japanese from the picker: tabs, buttons and the picker's own label follow at once.
    await page.getByRole("combobox", { name: "Sprache" }).selectOption("ja");
    await page.getByRole("tab", { name: "リクエスト" }).waitFor();
    await page.getByRole("button", { name: "機能を提案" }).waitFor();
    expect(await page.getByRole("combobox", { name: "言語" }).inputValue()).toBe("ja");
    expect(await page.getByRole("tab", { name: "Wünsche" }).count()).toBe(0);
    await page.screenshot({ path: artifact("portal-requests-ja.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows the Powered by Tidings footer unless the app hides its site branding", async () => {
    const app = await server.createApp("portal-branding");
    const context = await browser.newContext({ locale: "en-US" });
    const { page } = await openPortal(context, app.appKey, "#requests");
    const footer = page.locator(".td-portal-footer");
    await footer.getByText("Powered by Tidings").waitFor();

    expect(await footer.innerText()).toBe("Powered by Tidings");

    await server.consoleCall("PUT", `/workspaces/${app.wsId}/apps/${app.appId}`, { hideSiteBranding: true });
    await clearHttpCache(context, page);
    // The footer's fate is known only once the config has arrived: wait for it, then for the
    // footer to be gone (it never is while the app shows its branding).
    const configLoaded = context.waitForEvent("response", { predicate: (r) => r.url().includes(`/api/v1/public/config/${app.appKey}`) });
    const { page: hidden } = await openPortal(context, app.appKey, "#requests");
    await configLoaded;
    await hidden.getByRole("button", { name: "Suggest a feature" }).waitFor();
    await hidden.getByText("Powered by Tidings").waitFor({ state: "detached", timeout: 5000 });
    expect(await hidden.getByText("Powered by Tidings").count()).toBe(0);
    await context.close();
  });

  it("submits feedback and proposes a request on an app that requires altcha verification", async () => {
    const app = await server.createApp("portal-altcha");
    await app.settings({ verification: { provider: "altcha" }, moderationPolicy: "none" });
    const config = (await (await fetch(`${server.baseUrl}/api/v1/public/config/${app.appKey}`)).json()) as { verification: { provider: string; required: boolean } };
    expect(config.verification).toMatchObject({ provider: "altcha", required: true });

    const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, locale: "en-US" });
    const { page, problems } = await openPortal(context, app.appKey, "#feedback");
    const challenges: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.endsWith("/verification/challenge")) challenges.push(request.url());
    });
    await page.getByRole("textbox", { name: "Title" }).fill("Verified feedback from the browser");
    await page.getByRole("textbox", { name: "Details" }).fill("The SDK solved the proof of work.");
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/v1/feedback") && r.request().method() === "POST"),
      page.getByRole("button", { name: "Send" }).click(),
    ]);
    expect(answer.status()).toBe(201);
    await page.getByText("Thank you! Your feedback was sent.").waitFor();
    expect(challenges.length).toBeGreaterThanOrEqual(1);

    await page.getByRole("tab", { name: "Requests" }).click();
    await page.getByRole("button", { name: "Suggest a feature" }).click();
    const dialog = page.getByRole("dialog", { name: "Suggest a feature" });
    await dialog.getByRole("textbox", { name: "Title" }).fill("Verified request from the browser");
    const [proposed] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/v1/feature-requests") && r.request().method() === "POST"),
      dialog.getByRole("button", { name: "Submit" }).click(),
    ]);
    expect(proposed.status()).toBe(201);
    await dialog.getByText(/^Thanks! Your request/).waitFor();
    expect(problems).toEqual([]);

    // Without the solver's answer the server refuses: the verification is really enforced.
    const bare = await fetch(`${server.baseUrl}/api/v1/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-app-key": app.appKey },
      body: JSON.stringify({ title: "No proof", description: "", platform: "web" }),
    });
    expect(bare.status).toBeGreaterThanOrEqual(400);
    await context.close();
  });
});

describe.skipIf(!run)("screenshots of the remaining screens", () => {
  it("captures the requests list, a profile and the not-found page", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
    const { page, problems } = await openPortal(context, "app_demo", "#requests");
    await page.getByText("Offline mode").waitFor();
    await page.screenshot({ path: artifact("portal-requests.png"), fullPage: true });

    await page.getByRole("button", { name: "Apple Watch app", exact: true }).click();
    await page.getByText("Complications would be great.").waitFor();
    const author = page.locator(".td-author").first();
    await author.waitFor();
    const name = await author.innerText();
    await author.click();
    await page.getByRole("heading", { name, level: 2 }).waitFor();
    await page.getByText("Recent comments").waitFor();
    await page.screenshot({ path: artifact("portal-profile.png"), fullPage: true });
    // Back returns to the same request.
    await page.getByRole("button", { name: /Back/ }).first().click();
    await page.getByText("Complications would be great.").waitFor();
    expect(problems).toEqual([]);

    const missing = await context.newPage();
    const response = await missing.goto(`${server.baseUrl}/p/app_doesnotexist`);
    expect(response?.status()).toBe(404);
    await missing.getByRole("heading", { name: "Not found" }).waitFor();
    await missing.screenshot({ path: artifact("portal-not-found.png") });
    await context.close();
  });
});
