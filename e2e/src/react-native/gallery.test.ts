// Every screen of @tidings/react-native rendered through react-native-web in Chromium at phone
// size, light and dark, against the real server with seeded content; a screenshot of each goes to
// e2e/artifacts/react-native/<screen>-<theme>.png. The screens come from the gallery's registry
// (packages/react-native/src/test-support/gallery.tsx), so a new screen needs no change here.
import fs from "node:fs";
import path from "node:path";
import { FeedbackClient } from "@tidings/client";
import { palettes } from "@tidings/react-core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "../chromium.js";
import { startRealServer, type RealServer } from "../client/real-server.js";
import { ARTIFACTS } from "../react/browser.js";
import { serveGallery } from "./gallery.js";

const run = chromiumAvailable();
const PHONE = { width: 390, height: 844 };
/** The end user the gallery shows the screens to: one vote and one proposal waiting for review. */
const USER = "gallery-user-0001";
const THEMES = ["light", "dark"] as const;

let server: RealServer;
let gallery: Awaited<ReturnType<typeof serveGallery>>;
let browser: Browser;
let names: string[] = [];

/** Content beyond the demo app's requests and comments: a published release, a vote, a proposal. */
async function seed() {
  const me = (await server.consoleCall("GET", "/me")) as unknown as { workspaces: { workspace: { id: string; slug: string } }[] };
  const wsId = me.workspaces.find((w) => w.workspace.slug === "demo")!.workspace.id;
  const apps = (await server.consoleCall("GET", `/workspaces/${wsId}/apps`)) as unknown as { apps: { appId: string; appKey: string }[] };
  const appId = apps.apps.find((a) => a.appKey === "app_demo")!.appId;
  await server.consoleCall("POST", `/workspaces/${wsId}/changelog`, {
    appId,
    title: "Offline mode is here",
    body: "Keep working on the train: **everything syncs** when you are back online.\n\n- Drafts are kept\n- [Read more](https://example.com/offline)",
    versionLabel: "1.1",
    publishNow: true,
  });
  const user = new FeedbackClient({ baseUrl: server.baseUrl, appKey: "app_demo", userToken: USER, warn: () => undefined });
  const newest = (await user.listFeatureRequests({ q: "Import from other apps" })).requests[0]!;
  await user.toggleVote(newest.id);
  await user.submitFeatureRequest({ title: "Haptic feedback on votes", details: "A light tap when a vote lands." });
}

beforeAll(async () => {
  if (!run) return;
  server = await startRealServer();
  await seed();
  gallery = await serveGallery();
  browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(gallery.url);
  await page.getByTestId("gallery-index").waitFor();
  names = await page.getByTestId("gallery-screen-name").allInnerTexts();
  await page.close();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await gallery?.close();
  await server?.close();
});

function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/**
 * Every text inside the screen root with its colour, the colour of the nearest painted box behind
 * it, and whether it is on screen.
 */
function texts(page: Page, selector: string) {
  return page.locator(selector).evaluate((root) => {
    const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const painted = (el: Element | null): string => {
      for (let node = el; node !== null; node = node.parentElement) {
        const bg = getComputedStyle(node).backgroundColor;
        const [, , , alpha = 1] = parse(bg);
        if (alpha > 0) return bg;
      }
      return "rgb(255, 255, 255)";
    };
    const luminance = (c: string) => {
      const [r = 0, g = 0, b = 0] = parse(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    // Cut off on the right: past the viewport's edge with no horizontally scrolling box around it.
    const scrollsSideways = (el: Element) => {
      for (let node = el.parentElement; node !== null; node = node.parentElement) {
        // A horizontal ScrollView (react-native-web scrolls it on x only); a vertical one clips x.
        const style = getComputedStyle(node);
        if (/auto|scroll/.test(style.overflowX) && !/auto|scroll/.test(style.overflowY)) return true;
      }
      return false;
    };
    const out: { text: string; contrast: number; onScreen: boolean; cutOff: boolean }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      const el = node.parentElement;
      if (text === "" || el === null) continue;
      const style = getComputedStyle(el);
      const [l1, l2] = [luminance(style.color), luminance(painted(el))].sort((a, b) => b - a) as [number, number];
      const box = el.getBoundingClientRect();
      const onScreen = style.visibility !== "hidden" && Number(style.opacity) > 0 && box.width > 0 && box.height > 0 && box.top < innerHeight && box.bottom > 0;
      out.push({ text, contrast: (l1 + 0.05) / (l2 + 0.05), onScreen, cutOff: box.right > document.documentElement.clientWidth + 1 && !scrollsSideways(el) });
    }
    return out;
  });
}

describe.skipIf(!run)("the React Native screens through react-native-web in Chromium", () => {
  it("lists the gallery's screens", () => {
    expect(names.length).toBeGreaterThanOrEqual(2);
  });

  it.each(THEMES)("renders every screen at phone size in the %s theme, with a screenshot", async (theme) => {
    const dir = path.join(ARTIFACTS, "react-native");
    fs.mkdirSync(dir, { recursive: true });
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: theme, locale: "en-US" });
    for (const name of names) {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      const query = new URLSearchParams({ screen: name, theme, api: server.baseUrl, user: USER });
      await page.goto(`${gallery.url}?${query}`);
      const root = page.getByTestId(`tidings-screen-${theme}`).first();
      await root.waitFor();
      // Loaded: the config and the screen's data have come back.
      await page.waitForLoadState("networkidle");
      const shot = path.join(dir, `${name}-${theme}.png`);
      await page.screenshot({ path: shot, animations: "disabled" });

      const where = `${name} (${theme})`;
      expect(await page.getByTestId("gallery-error").count(), where).toBe(0);
      expect(errors, where).toEqual([]);
      const label = await root.getAttribute("aria-label");
      expect(label, `${where}: the screen root's accessibility label`).toMatch(/\S/);
      expect(await page.getByLabel(label!, { exact: true }).first().isVisible(), where).toBe(true);
      expect(await root.evaluate((el) => getComputedStyle(el).backgroundColor), `${where}: background`).toBe(rgb(palettes[theme].bg));
      // The whole page: a Modal (the changelog overlay) renders outside the screen root.
      const shown = await texts(page, "body");
      expect(shown.filter((t) => t.onScreen).length, `${where}: visible text`).toBeGreaterThan(0);
      expect(shown.filter((t) => t.contrast < 3), `${where}: text with a contrast under 3:1`).toEqual([]);
      expect(shown.filter((t) => t.cutOff).map((t) => t.text), `${where}: text cut off at the right edge`).toEqual([]);
      expect(fs.statSync(shot).size).toBeGreaterThan(1000);
      await page.close();
    }
    await context.close();
    // Every screen of the gallery in one browser context: seconds each on a loaded 2-core machine.
  }, 120_000);
});
