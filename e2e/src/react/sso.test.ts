import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHmac } from "node:crypto";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "../client/real-server.js";
import { artifact, chromiumAvailable, launchChromium } from "./browser.js";

const run = chromiumAvailable();
let server: RealServer;
let browser: Browser;
let host: http.Server;
let hostUrl: string;
let app: Awaited<ReturnType<RealServer["createApp"]>>;
/** The page the host app serves: its signed-in user's token goes into the widget's tag. */
let hostPage = "";

beforeAll(async () => {
  if (!run) return;
  server = await startRealServer();
  browser = await launchChromium();
  app = await server.createApp("sso-e2e");
  await app.settings({ moderationPolicy: "none", requireIdentifiedUsers: true });
  await server.consoleCall("POST", `/workspaces/${app.wsId}/feature-requests`, { appId: app.appId, title: "Dark mode", columnSlug: "planned" });
  // Another origin than the server's, as a real host app is.
  host = http.createServer((_request, response) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(hostPage));
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  hostUrl = `http://localhost:${(host.address() as AddressInfo).port}/`;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => host?.close(resolve));
});

/** What the host's backend does (the snippet of docs/sso.md): HS256 with the app's signing secret, audience the app key. */
async function signHostUser(claims: Record<string, unknown>, secret = app.signingSecret): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part({ aud: app.appKey, iat, exp: iat + 600, ...claims })}`;
  return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
}

/** Opens the host page with the widget given `token`, opens the panel and the request's detail. */
async function openWidget(token: string): Promise<{ page: Page; frame: Frame }> {
  hostPage = `<!doctype html><html><head><title>Host app</title></head><body><h1>Host app</h1>
<script src="${server.baseUrl}/widget.js" data-app-key="${app.appKey}" data-tab="requests" data-sso-token="${token}" async></script></body></html>`;
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`[page error] ${error.message}`));
  await page.goto(hostUrl);
  await page.getByRole("button", { name: "Feedback" }).click();
  const frameElement = await page.waitForSelector("[data-tidings-widget] >> css=iframe");
  const frame = (await frameElement.contentFrame())!;
  await frame.getByRole("button", { name: "Dark mode", exact: true }).click();
  await frame.getByRole("textbox", { name: "Add a comment" }).waitFor();
  return { page, frame };
}

async function postComment(frame: Frame, text: string) {
  await frame.getByRole("textbox", { name: "Add a comment" }).fill(text);
  const [answer] = await Promise.all([
    frame.page().waitForResponse((r) => r.url().endsWith("/comments") && r.request().method() === "POST"),
    frame.getByRole("button", { name: "Post" }).last().click(),
  ]);
  return answer;
}

describe.skipIf(!run)("sign-in from the host app in Chromium", () => {
  it("posts a comment from the widget under the host user's name and follows with the token's address, with the token kept out of the portal's address", async () => {
    const token = await signHostUser({ sub: "user-42", name: "Ada Lovelace", email: "ada@example.com" });
    const { page, frame } = await openWidget(token);
    expect(frame.url()).not.toContain("ssoToken");
    const answer = await postComment(frame, "Signed in from the host app");
    expect(answer.status()).toBe(201);
    expect(answer.request().headers()["x-sso-token"]).toBe(token);
    const comment = frame.getByRole("listitem").filter({ hasText: "Signed in from the host app" });
    await comment.getByText("Ada Lovelace").waitFor();

    // The token's address needs no confirmation: following takes one click and holds at once.
    const updates = frame.getByRole("region", { name: "Get updates on this request" });
    await updates.getByText("Updates go to ada@example.com.").waitFor();
    expect(await updates.getByRole("textbox").count()).toBe(0);
    const [follow] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/subscription") && r.request().method() === "POST"),
      updates.getByRole("button", { name: "Get updates" }).click(),
    ]);
    expect(await follow.json()).toEqual({ following: true, pending: false });
    expect(await updates.getByRole("status").innerText()).toBe("You'll get updates on this request.");
    await page.screenshot({ path: artifact("widget-sso-comment.png"), fullPage: true });
    await page.context().close();
  });

  it.each([
    ["forged", () => signHostUser({ sub: "user-42", name: "Mallory" }, "tsk_not-the-apps-secret-0000000000000000000"), 401, "sso_signature_mismatch"],
    ["expired", () => signHostUser({ sub: "user-42", name: "Ada Lovelace", iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }), 401, "sso_token_expired"],
  ] as const)("refuses a %s token: the comment is not posted", async (_name, make, status, code) => {
    const { page, frame } = await openWidget(await make());
    const text = `Attempt with a ${_name} token`;
    const answer = await postComment(frame, text);
    expect(answer.status()).toBe(status);
    expect(((await answer.json()) as { code: string }).code).toBe(code);
    const listed = (await (await fetch(`${server.baseUrl}/api/v1/feature-requests?appKey=${app.appKey}`)).json()) as { requests: Array<{ id: string }> };
    const comments = (await (await fetch(`${server.baseUrl}/api/v1/feature-requests/${listed.requests[0]!.id}/comments`)).json()) as { comments: Array<{ body: string }> };
    expect(comments.comments.map((c) => c.body)).not.toContain(text);
    await page.context().close();
  });
});
