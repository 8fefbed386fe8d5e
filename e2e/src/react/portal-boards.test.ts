// A board's own address and tag filters in the portal the server serves, in Chromium.
import { createHmac } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "../client/real-server.js";
import { artifact, chromiumAvailable, launchChromium } from "./browser.js";

const run = chromiumAvailable();
let server: RealServer;
let browser: Browser;
let appKey: string;
let wsId: string;
let bugsId: string;
let signingSecret: string;

const TITLES = ["Dark mode", "Crash on launch", "Slow sync"];
/** Those, and the request of the private board. */
const EVERY_TITLE = [...TITLES, "Secret engine"];

beforeAll(async () => {
  if (!run) return;
  server = await startRealServer();
  browser = await launchChromium();
  // An app with a Bugs board beside the default one, and two tags, one coloured.
  const app = await server.createApp("portal-boards");
  appKey = app.appKey;
  wsId = app.wsId;
  const at = `/workspaces/${app.wsId}/apps/${app.appId}`;
  const bugs = (await server.consoleCall("POST", `${at}/boards`, { name: "Bugs", description: "Things that break." })) as unknown as { id: string };
  bugsId = bugs.id;
  const mobile = (await server.consoleCall("POST", `${at}/tags`, { name: "Mobile", color: "#e11d48" })) as unknown as { id: string };
  const sync = (await server.consoleCall("POST", `${at}/tags`, { name: "Sync" })) as unknown as { id: string };
  const create = async (title: string) => ((await server.consoleCall("POST", `/workspaces/${app.wsId}/feature-requests`, { appId: app.appId, title })) as unknown as { id: string }).id;
  const dark = await create("Dark mode");
  const crash = await create("Crash on launch");
  const slow = await create("Slow sync");
  await server.consoleCall("POST", `${at}/feature-requests/move`, { boardId: bugs.id, featureRequestIds: [crash, slow] });
  await server.consoleCall("POST", `${at}/feature-requests/tags`, { featureRequestIds: [dark, crash], add: [mobile.id] });
  await server.consoleCall("POST", `${at}/feature-requests/tags`, { featureRequestIds: [crash, slow], add: [sync.id] });
  // A private board admitting every identified user, with a request of its own.
  signingSecret = app.signingSecret;
  const lab = (await server.consoleCall("POST", `${at}/boards`, { name: "Lab", slug: "lab", visibility: "private" })) as unknown as { id: string };
  await server.consoleCall("POST", `/workspaces/${app.wsId}/feature-requests`, { appId: app.appId, title: "Secret engine", boardId: lab.id });
}, 60_000);

/** An SSO token as the host's backend signs it (docs/sso.md): HS256 with the app's signing secret, audience the app key. */
function ssoToken(sub: string): string {
  const iat = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part({ aud: appKey, iat, exp: iat + 600, sub })}`;
  return `${unsigned}.${createHmac("sha256", signingSecret).update(unsigned).digest("base64url")}`;
}
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(context: BrowserContext, path: string): Promise<{ page: Page; listings: URLSearchParams[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  page.on("pageerror", (error) => console.error(`[page error] ${error.message}`));
  const listings: URLSearchParams[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/v1/feature-requests" && request.method() === "GET") listings.push(url.searchParams);
  });
  await page.goto(`${server.baseUrl}/p/${appKey}${path}`);
  await page.locator(".td-ssr").waitFor({ state: "detached" });
  return { page, listings };
}

/** The request titles the list shows, once it shows `expected` (in any order). */
async function listed(page: Page, expected: string[]): Promise<void> {
  const titles = async () => {
    const shown: string[] = [];
    for (const title of EVERY_TITLE) if ((await page.getByRole("button", { name: title, exact: true }).count()) > 0) shown.push(title);
    return shown.sort();
  };
  await expect.poll(titles, { timeout: 8000 }).toEqual([...expected].sort());
}

/** Where the browser is, below the app's portal. */
const address = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname.slice(`/p/${appKey}`.length) + url.search;
};

describe.skipIf(!run)("boards and tags in the portal, in Chromium", () => {
  it("opens a board's address with tags from the URL, listing only what they match", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
    const { page, listings } = await open(context, "/b/bugs?tag=sync");
    await listed(page, ["Crash on launch", "Slow sync"]);
    const filters = page.getByRole("region", { name: "Boards and tags" });
    expect(await filters.getByRole("link", { name: "Bugs" }).getAttribute("aria-current")).toBe("page");
    expect(await filters.getByRole("link", { name: "All boards" }).getAttribute("href")).toBe(`/p/${appKey}/requests?tag=sync`);
    await filters.getByRole("button", { name: "Remove Sync" }).waitFor();
    // The list asked the server for the board and the tag.
    expect(listings.map((q) => [q.get("board"), q.getAll("tag")])).toContainEqual(["bugs", ["sync"]]);
    await page.screenshot({ path: artifact("portal-board-tags.png"), fullPage: true });
    await context.close();
  });

  it("puts each board and tag chosen in the address, and Back and Forward walk them", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
    const { page } = await open(context, "/requests");
    await listed(page, TITLES);
    const filters = page.getByRole("region", { name: "Boards and tags" });

    await filters.getByRole("link", { name: "Bugs" }).click();
    await listed(page, ["Crash on launch", "Slow sync"]);
    expect(address(page)).toBe("/b/bugs");
    await filters.getByRole("combobox", { name: "Filter by tag" }).selectOption({ label: "Mobile" });
    await listed(page, ["Crash on launch"]);
    expect(address(page)).toBe("/b/bugs?tag=mobile");
    await filters.getByRole("link", { name: "All boards" }).click();
    await listed(page, ["Crash on launch", "Dark mode"]);
    expect(address(page)).toBe("/requests?tag=mobile");
    await filters.getByRole("button", { name: "Remove Mobile" }).click();
    await listed(page, TITLES);
    expect(address(page)).toBe("/requests");

    await page.goBack();
    await listed(page, ["Crash on launch", "Dark mode"]);
    expect(address(page)).toBe("/requests?tag=mobile");
    await page.goBack();
    await listed(page, ["Crash on launch"]);
    await page.goBack();
    await listed(page, ["Crash on launch", "Slow sync"]);
    expect(address(page)).toBe("/b/bugs");
    await page.goForward();
    await listed(page, ["Crash on launch"]);
    expect(address(page)).toBe("/b/bugs?tag=mobile");
    // A reload of that address is the same list: the address alone says it.
    await page.reload();
    await page.locator(".td-ssr").waitFor({ state: "detached" });
    await listed(page, ["Crash on launch"]);
    await context.close();
  });

  it("shows a request's board and tags, each opening its list, and comes back to the filtered list", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
    const { page } = await open(context, "/b/bugs");
    await listed(page, ["Crash on launch", "Slow sync"]);
    await page.getByRole("button", { name: "Crash on launch", exact: true }).click();
    await page.getByRole("heading", { name: "Crash on launch", level: 2 }).waitFor();
    expect(address(page)).toMatch(/^\/requests\/fr_[0-9a-z]{26}-crash-on-launch$/);
    const filters = page.getByRole("region", { name: "Boards and tags" });
    expect(await filters.getByRole("link", { name: "Bugs" }).getAttribute("href")).toBe(`/p/${appKey}/b/bugs`);
    await filters.getByRole("link", { name: "Mobile" }).waitFor();
    expect(await filters.locator("circle").getAttribute("fill")).toBe("#e11d48");
    await page.screenshot({ path: artifact("portal-request-board-tags.png"), fullPage: true });

    // Back: the board's list as it was.
    await page.goBack();
    await listed(page, ["Crash on launch", "Slow sync"]);
    expect(address(page)).toBe("/b/bugs");
    await page.goForward();
    await filters.getByRole("link", { name: "Sync" }).click();
    await listed(page, ["Crash on launch", "Slow sync"]);
    expect(address(page)).toBe("/requests?tag=sync");
    await context.close();
  });

  it("shows a private board at its address to a visitor signed in through SSO it admits, and not found to anyone else", async () => {
    const anonymous = await browser.newContext({ viewport: { width: 1000, height: 800 }, locale: "en-US" });
    const outside = await open(anonymous, "/b/lab");
    await outside.page.getByRole("status").filter({ hasText: "This page does not exist." }).waitFor();
    expect(await outside.page.getByRole("button", { name: "Secret engine", exact: true }).count()).toBe(0);
    expect(outside.listings).toEqual([]);
    await anonymous.close();

    const signedIn = await browser.newContext({ viewport: { width: 1000, height: 800 }, locale: "en-US" });
    const { page, listings } = await open(signedIn, `/b/lab#ssoToken=${ssoToken("insider-1")}`);
    await listed(page, ["Secret engine"]);
    expect(listings.map((l) => l.get("board"))).toContain("lab");
    expect(address(page)).toBe("/b/lab");
    const filters = page.getByRole("region", { name: "Boards and tags" });
    expect(await filters.getByRole("link", { name: "Lab" }).getAttribute("aria-current")).toBe("page");
    await signedIn.close();
  });

  it("proposes into the board the visitor is looking at", async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, locale: "en-US" });
    const { page } = await open(context, "/b/bugs");
    await listed(page, ["Crash on launch", "Slow sync"]);
    await page.getByRole("button", { name: "Suggest a feature" }).click();
    const dialog = page.getByRole("dialog", { name: "Suggest a feature" });
    await dialog.getByRole("textbox", { name: "Title" }).fill("Freezes on rotate");
    const [answer] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/feature-requests" && r.request().method() === "POST"),
      dialog.getByRole("button", { name: "Submit" }).click(),
    ]);
    expect(answer.status()).toBe(201);
    expect(answer.request().postDataJSON()).toMatchObject({ board: "bugs", title: "Freezes on rotate" });
    const id = ((await answer.json()) as { featureRequestId: string }).featureRequestId;
    const record = (await server.consoleCall("GET", `/workspaces/${wsId}/feature-requests/${id}`)) as unknown as { boardId: string };
    expect(record.boardId).toBe(bugsId);
    await context.close();
  });
});
