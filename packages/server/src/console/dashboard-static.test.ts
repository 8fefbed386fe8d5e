import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { dashboardRoutes } from "./dashboard-static.js";

describe("dashboard files at /admin/", () => {
  let parent: string;
  let dir: string;
  let t: TestApp;
  beforeAll(async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-dashboard-"));
    dir = path.join(parent, "public");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>admin</title>");
    fs.writeFileSync(path.join(dir, "app.js"), "export {};");
    fs.writeFileSync(path.join(dir, "styles.css"), "body{}");
    fs.writeFileSync(path.join(parent, "outside-secret.txt"), "secret");
    t = await createTestApp("sqlite");
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  const serve = async (url: string) => {
    const app = Fastify();
    dashboardRoutes(app as never, dir);
    const res = await app.inject({ url });
    await app.close();
    return res;
  };

  it("serves files with their content type, a self-only CSP and no referrer", async () => {
    const js = await serve("/admin/app.js");
    expect(js.statusCode).toBe(200);
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.headers["content-security-policy"]).toMatch(/^default-src 'self'; script-src 'self'; style-src 'self'/);
    expect(js.headers["referrer-policy"]).toBe("no-referrer");
    expect((await serve("/admin/styles.css")).headers["content-type"]).toBe("text/css; charset=utf-8");
  });

  it("answers index.html for client routes, redirects /admin, and 404s missing or outside files", async () => {
    const route = await serve("/admin/w/ws_1/a/app_1/settings");
    expect([route.statusCode, route.headers["content-type"], route.body]).toEqual([200, "text/html; charset=utf-8", "<!doctype html><title>admin</title>"]);
    const bare = await serve("/admin");
    expect([bare.statusCode, bare.headers.location]).toEqual([302, "/admin/"]);
    expect((await serve("/admin/missing.js")).statusCode).toBe(404);
    expect((await serve("/admin/..%2Foutside-secret.txt")).statusCode).toBe(404);
    expect((await serve("/admin/../outside-secret.txt")).body).not.toBe("secret");
  });

  it("is mounted by buildApp, with the dashboard's CSP instead of the API's", async () => {
    const res = await t.app.inject({ url: "/admin/" });
    expect([200, 503]).toContain(res.statusCode);
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    const api = await t.app.inject({ url: "/api/v1/console/auth/session" });
    expect(api.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
