import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "../client/real-server.js";
import { ARTIFACTS, chromiumAvailable, launchChromium } from "../react/browser.js";
import { guideSample, serveSample, withConstants, type SamplePage } from "./guide-sample.js";

const run = chromiumAvailable();
let server: RealServer;
let browser: Browser;
let sample: SamplePage | undefined;

beforeAll(async () => {
  if (!run) return;
  server = await startRealServer();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await sample?.close();
  await browser?.close();
  await server?.close();
});

describe.skipIf(!run)("docs/web.md, the plain-SDK sample in Chromium", () => {
  it("sends the form's feedback to the app, thanks the user by submission id and clears the form", async () => {
    const app = await server.createApp("web-guide");
    const code = withConstants(guideSample("docs/web.md", "plain-sdk"), { TIDINGS_URL: server.baseUrl, APP_KEY: app.appKey });
    sample = await serveSample(code, path.join(ARTIFACTS, "web-guide-sample"), "feedback");
    const page = await browser.newPage();
    page.setDefaultTimeout(8000);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(sample.url);
    await page.getByLabel("Title").fill("Dark mode please");
    await page.getByLabel("Details").fill("The white page hurts at night.");
    await page.getByRole("button", { name: "Send feedback" }).click();
    const status = page.getByRole("status");
    await expect.poll(() => status.textContent()).toMatch(/^Thanks! Your feedback is #/);
    expect(await page.getByLabel("Title").inputValue()).toBe("");
    expect(errors).toEqual([]);

    const id = /#(\S+)\.$/.exec((await status.textContent()) ?? "")?.[1];
    const inbox = (await server.consoleCall("GET", `/workspaces/${app.wsId}/submissions?appId=${app.appId}`)) as unknown as {
      submissions: { submissionId: string; title: string; description: string; platform: string }[];
    };
    expect(inbox.submissions).toEqual([
      expect.objectContaining({ submissionId: id, title: "Dark mode please", description: "The white page hurts at night.", platform: "web" }),
    ]);
  });
});
