import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routesOf } from "@tidings/testing/fuzz/openapi-walker";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { GENEROUS_RATE_LIMITS, createTestApp, type TestApp } from "@tidings/testing/test-app";

// Only a caller that asks for a page (Accept naming text/html) may get HTML from the API: every
// other answer, refusals first, is JSON, refusals in the {error, code} envelope. The routes come
// from the route table, so a page added later is checked too.
describe("HTML answers of the public API", () => {
  let t: TestApp;
  let appKey: string;
  beforeAll(async () => {
    t = await createTestApp("sqlite", { rateLimits: GENEROUS_RATE_LIMITS });
    appKey = (await createWorkspaceWithApp(t.app, t.admin.authorization, "pages-co")).appKey;
  });
  afterAll(() => t.close());

  const routes = () => routesOf(t.app.swagger()).filter((r) => r.path.startsWith("/api/") && !r.path.startsWith("/api/v1/console"));

  it.each([["no Accept", undefined], ["Accept: */*", "*/*"], ["Accept: application/json", "application/json"]])(
    "refuses in the envelope, never a page, with %s",
    async (_name, accept) => {
      const pages: string[] = [];
      for (const route of routes()) {
        for (const query of ["", "?token=forged"]) {
          const url = `${route.path.replace("{appKey}", appKey).replace(/\{[^}]+\}/g, "x")}${query}`;
          const res = await t.app.inject({ method: route.method as "GET", url, headers: accept === undefined ? {} : { accept } });
          if (res.statusCode < 400) continue;
          // The envelope's `code` is left out only where the wire contract keeps a bare body (config, profiles).
          const body = String(res.headers["content-type"] ?? "").startsWith("application/json") ? (res.json() as { error?: unknown }) : undefined;
          if (typeof body?.error !== "string") pages.push(`${route.method} ${url}: ${res.statusCode} ${String(res.headers["content-type"])}`);
        }
      }
      expect(pages).toEqual([]);
    },
  );

  it("answers the preference page's refusal as a page to a browser and in the envelope to anyone else", async () => {
    const url = `/api/v1/public/apps/${appKey}/notifications?token=forged`;
    const api = await t.app.inject({ url });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toEqual({ error: "Invalid preference link", code: "invalid_unsubscribe_token" });
    const browser = await t.app.inject({ url, headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(browser.statusCode).toBe(400);
    expect(browser.headers["content-type"]).toBe("text/html; charset=utf-8");
  });
});
