// Every screen of the portal the server serves, checked in Chromium with axe-core for the landmark
// and heading rules, and the tabs' geometry on a phone-sized screen.
import fs from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "../client/real-server.js";
import { artifact, chromiumAvailable, launchChromium } from "./browser.js";

// Evaluated through the DevTools protocol: the portal's Content-Security-Policy allows no injected script tag.
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const RULES = ["landmark-one-main", "region", "heading-order"];

const run = chromiumAvailable();
let server: RealServer;
let browser: Browser;
/** Portal screen name → its path. */
let screens: Record<string, string>;
/** The screens that show the boards and tags above the sections. */
const ORGANISED = ["board", "request on a board"];

async function json<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${server.baseUrl}${path}`, init);
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  if (!run) return;
  server = await startRealServer();
  browser = await launchChromium();
  const { requests } = await json<{ requests: { id: string; title: string }[] }>("/api/v1/feature-requests?appKey=app_demo&q=Dark%20mode");
  const request = requests.find((r) => r.title === "Dark mode")!;
  // A comment of a user of our own, whose public profile is then a screen to check.
  await json(`/api/v1/feature-requests/${request.id}/comments`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-user-token": "a11y-commenter" },
    body: JSON.stringify({ body: "Following this one." }),
  });
  const comments = JSON.stringify(await json(`/api/v1/feature-requests/${request.id}/comments`));
  const userId = /"(u_[0-9a-f]{32})"/.exec(comments)?.[1];
  // The demo app has no release: an app of our own shows one.
  const releases = await server.createApp("a11y-releases");
  await server.consoleCall("POST", `/workspaces/${releases.wsId}/changelog`, { appId: releases.appId, publishNow: true, title: "Version 2.0", body: "Dark mode is here." });
  const { entries } = await json<{ entries: { id: string }[] }>(`/api/v1/public/apps/${releases.appKey}/changelog`);
  const { columns } = await json<{ columns: { slug: string }[] }>("/api/v1/public/columns/app_demo");
  if (userId === undefined || entries[0] === undefined || columns[0] === undefined) throw new Error("demo data lacks a profile, a release or a column");
  // The demo app has one board and no tag: an app of our own has two boards and a tag, so its
  // screens show the boards and tags above the sections.
  const organised = await server.createApp("a11y-boards");
  const at = `/workspaces/${organised.wsId}/apps/${organised.appId}`;
  const bugs = (await server.consoleCall("POST", `${at}/boards`, { name: "Bugs" })) as unknown as { id: string };
  const tag = (await server.consoleCall("POST", `${at}/tags`, { name: "Mobile", color: "#e11d48" })) as unknown as { id: string };
  const crash = (await server.consoleCall("POST", `/workspaces/${organised.wsId}/feature-requests`, { appId: organised.appId, title: "Crash on launch" })) as unknown as { id: string };
  await server.consoleCall("POST", `${at}/feature-requests/move`, { boardId: bugs.id, featureRequestIds: [crash.id] });
  await server.consoleCall("POST", `${at}/feature-requests/tags`, { featureRequestIds: [crash.id], add: [tag.id] });
  screens = {
    home: "/p/app_demo",
    roadmap: "/p/app_demo/roadmap",
    "roadmap column": `/p/app_demo/roadmap/${columns[0].slug}`,
    requests: "/p/app_demo/requests",
    request: `/p/app_demo/requests/${request.id}`,
    changelog: `/p/${releases.appKey}/changelog`,
    release: `/p/${releases.appKey}/changelog/${entries[0].id}`,
    feedback: "/p/app_demo/feedback",
    profile: `/p/app_demo/users/${userId}`,
    board: `/p/${organised.appKey}/b/bugs?tag=mobile`,
    "request on a board": `/p/${organised.appKey}/requests/${crash.id}`,
    "not found": "/p/app_demo/nowhere",
  };
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  // Generous: on CI's two cores this file runs beside Metro builds.
  page.setDefaultTimeout(20_000);
  await page.goto(`${server.baseUrl}${path}`);
  // The app has rendered its sections (the server-rendered content is gone and the tabs are
  // there) and nothing is loading. The 404 page is the server's own, without the app. Network
  // idleness alone does not tell: on a busy machine it can come before the app's first request.
  // Polled on a timer: the default polls on animation frames, which a headless Chromium starved
  // of CPU can stop producing while the page itself is ready.
  if (path !== screens["not found"]) {
    await page
      .waitForFunction(() => document.querySelector(".td-ssr") === null && document.querySelector('[role="tablist"]') !== null && document.querySelector('.td-loading, [aria-busy="true"]') === null, undefined, { polling: 100 })
      .catch(async (error: unknown) => {
        // Say where it stopped: still server-rendered, no tabs, or something still loading.
        const shown = await page.evaluate(() => ({
          ssr: document.querySelector(".td-ssr") !== null,
          tabs: document.querySelector('[role="tablist"]') !== null,
          loading: [...document.querySelectorAll('.td-loading, [aria-busy="true"]')].map((e) => e.outerHTML.slice(0, 200)),
          text: document.body.innerText.slice(0, 300),
        }));
        throw new Error(`${path} not ready: ${JSON.stringify(shown)}`, { cause: error });
      });
  }
  await page.waitForLoadState("networkidle");
  return page;
}

/** axe-core's violations of {@link RULES} on the page, as `rule: selector` lines. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (rules) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "rule", values: rules } });
    return result.violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(" ")}`));
  }, RULES);
}

describe.skipIf(!run)("the portal's accessibility in Chromium", () => {
  it("has one main landmark, all content in landmarks and headings in order on every screen", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
    const found: Record<string, string[]> = {};
    for (const [name, path] of Object.entries(screens)) {
      const page = await open(context, path);
      if (ORGANISED.includes(name)) await page.getByRole("region", { name: "Boards and tags" }).getByRole("link", { name: "Mobile" }).or(page.getByRole("button", { name: "Remove Mobile" })).waitFor();
      found[name] = await violations(page);
      await page.close();
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(screens).map((name) => [name, []])));
    await context.close();
  }, 120_000);

  it("passes the same rules at 390 px wide, where every tab is whole and on screen", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "en-US", isMobile: true, hasTouch: true });
    for (const [name, path] of Object.entries(screens)) {
      const page = await open(context, path);
      expect({ name, violations: await violations(page) }).toEqual({ name, violations: [] });
      // A release the visitor has not seen opens the "what's new" dialog over everything; closed,
      // the tabs must be there to use.
      const dialog = page.getByRole("dialog");
      if (await dialog.isVisible()) {
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });
      }
      const tabs = page.getByRole("tab");
      // The 404 page is the server's own, without the app; the demo app shows all four sections.
      if (name === "not found") expect(await tabs.count()).toBe(0);
      else if (path.startsWith("/p/app_demo")) expect(await tabs.count(), name).toBeGreaterThanOrEqual(4);
      const geometry = await page.evaluate(() => {
        const rect = (element: Element) => element.getBoundingClientRect();
        return {
          pageWidth: document.documentElement.scrollWidth,
          viewport: window.innerWidth,
          tabs: [...document.querySelectorAll('[role="tab"]')].map((tab) => {
            const box = rect(tab);
            // The element drawn at the tab's centre: the tab itself unless something covers or clips it.
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            const list = tab.closest('[role="tablist"]')!;
            return {
              label: tab.textContent,
              left: Math.floor(box.left),
              right: Math.ceil(box.right),
              listLeft: Math.floor(rect(list).left),
              listRight: Math.ceil(rect(list).right),
              clipped: tab.scrollWidth > tab.clientWidth,
              reachable: hit !== null && tab.contains(hit),
            };
          }),
        };
      });
      // Nothing scrolls the page sideways, and each tab lies whole inside its list and the screen.
      expect(geometry.pageWidth, name).toBeLessThanOrEqual(geometry.viewport);
      for (const tab of geometry.tabs) {
        expect(tab, `${name}: ${tab.label}`).toMatchObject({ clipped: false, reachable: true });
        expect(tab.left, `${name}: ${tab.label}`).toBeGreaterThanOrEqual(Math.max(0, tab.listLeft));
        expect(tab.right, `${name}: ${tab.label}`).toBeLessThanOrEqual(Math.min(geometry.viewport, tab.listRight));
      }
      if (name === "requests") await page.screenshot({ path: artifact("portal-390px-requests.png") });
      await page.close();
    }
    await context.close();
  }, 120_000);
});
