import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";

// Behaviour that does not depend on the database engine runs on SQLite only.
describe("cross-cutting HTTP behaviour", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("sqlite");
  });
  afterAll(() => t.close());

  it("keeps a well-formed caller X-Request-Id and replaces a malformed one", async () => {
    const kept = await t.app.inject({ url: "/healthz", headers: { "x-request-id": "cli-0123456789" } });
    expect(kept.headers["x-request-id"]).toBe("cli-0123456789");
    const replaced = await t.app.inject({ url: "/healthz", headers: { "x-request-id": "bad id with spaces" } });
    expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const short = await t.app.inject({ url: "/healthz", headers: { "x-request-id": "abc" } });
    expect(short.headers["x-request-id"]).not.toBe("abc");
  });

  it("puts X-Request-Id on errors too", async () => {
    const res = await t.app.inject({ url: "/nope", headers: { "x-request-id": "req-12345678" } });
    expect(res.statusCode).toBe(404);
    expect(res.headers["x-request-id"]).toBe("req-12345678");
    expect(res.json()).toEqual({ error: "Not found", code: "not_found" });
  });

  it("answers a missing dashboard file with the not_found envelope, not plain text", async () => {
    const res = await t.app.inject({ url: "/admin/no-such-file.js" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.json()).toEqual({ error: "Not found", code: "not_found" });
  });

  it("answers /healthz and /readyz", async () => {
    expect((await t.app.inject({ url: "/healthz" })).json()).toEqual({ status: "ok" });
    const ready = await t.app.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ role: "all", checks: { database: { status: "ok" } } });
  });

  it("refuses a console JSON body over 1 MB with 413 payload_too_large and writes nothing", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/console/workspaces",
      headers: { ...t.admin, "content-type": "application/json" },
      payload: JSON.stringify({ name: "x".repeat(1024 * 1024 + 10), slug: "big" }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: "Payload exceeds size limit", code: "payload_too_large" });
    const me = await t.app.inject({ url: "/api/v1/console/me", headers: t.admin });
    expect(me.json().workspaces.map((w: { workspace: { slug: string } }) => w.workspace.slug)).not.toContain("big");
  });

  it("refuses public JSON over 256 KB with 413 payload_too_large", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/feature-requests",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ appKey: "app_demo", title: "Big", description: "x".repeat(256 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: "Payload exceeds size limit", code: "payload_too_large" });
  });

  it("answers a wrong content type with 415 and malformed JSON with 400 invalid_json", async () => {
    const wrongType = await t.app.inject({
      method: "POST",
      url: "/api/v1/console/workspaces",
      headers: { ...t.admin, "content-type": "text/plain" },
      payload: "name=x",
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toMatchObject({ code: "unsupported_media_type" });
    const badJson = await t.app.inject({
      method: "POST",
      url: "/api/v1/console/workspaces",
      headers: { ...t.admin, "content-type": "application/json" },
      payload: '{"name": ',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ error: "Request body is not valid JSON", code: "invalid_json" });
    expect(badJson.body).not.toContain("at ");
    // Well-formed JSON refused for a key that could poison prototypes says so.
    for (const payload of ['{"name":"Acme","__proto__":{"admin":true}}', '{"name":"Acme","meta":{"constructor":{"prototype":{"admin":true}}}}']) {
      const poisoned = await t.app.inject({ method: "POST", url: "/api/v1/console/workspaces", headers: { ...t.admin, "content-type": "application/json" }, payload });
      expect([poisoned.statusCode, poisoned.json()], payload).toEqual([400, { error: "Keys named __proto__, and prototype inside constructor, are not accepted", code: "invalid_json" }]);
    }
  });

  it("answers schema violations with 400 validation_failed and field details", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/console/workspaces",
      headers: t.admin,
      payload: { name: "", slug: "Not A Slug" },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe("Validation failed");
    expect(body.code).toBe("validation_failed");
    expect(Object.keys(body.details.fieldErrors).sort()).toEqual(["name", "slug"]);
  });

  it("allows cross-origin SDK calls on public endpoints and exposes X-Request-Id", async () => {
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/api/v1/public/config/app_demo",
      headers: {
        origin: "https://shop.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-user-token,x-user-hash",
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(String(preflight.headers["access-control-allow-headers"]).toLowerCase()).toContain("x-user-token");
    const get = await t.app.inject({ url: "/api/v1/public/config/app_demo", headers: { origin: "https://shop.example" } });
    expect(get.headers["access-control-allow-origin"]).toBe("*");
    expect(String(get.headers["access-control-expose-headers"])).toContain("X-Request-Id");
  });

  it("gives the console API no CORS", async () => {
    const res = await t.app.inject({ url: "/api/v1/console/me", headers: { ...t.admin, origin: "https://evil.example" } });
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("sets security headers on answers and errors, HSTS only behind https", async () => {
    for (const url of ["/api/v1/public/config/app_demo", "/api/v1/console/me", "/nope"]) {
      const res = await t.app.inject({ url });
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers["strict-transport-security"]).toBeUndefined();
    }
    const https = await createTestApp("sqlite", { publicUrl: "https://feedback.example.com" });
    try {
      const res = await https.app.inject({ url: "/healthz" });
      expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    } finally {
      await https.close();
    }
  });

  it("serves OpenAPI 3.1 generated from the route schemas, and a docs UI", async () => {
    const res = await t.app.inject({ url: "/api/v1/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe("3.1.0");
    // The changelog documents its entries' recursive Markdown tokens.
    const changelog = JSON.stringify(doc.paths["/api/v1/public/apps/{appKey}/changelog"]);
    const blocksRef = /"blocks":\{"\$ref":"#\/components\/schemas\/([^"]+)"\}/.exec(changelog)?.[1] ?? "";
    const schemas = doc.components.schemas as Record<string, { items?: { $ref?: string } }>;
    const blockRef = schemas[blocksRef]?.items?.$ref?.replace("#/components/schemas/", "") ?? "";
    const block = JSON.stringify(schemas[blockRef]);
    for (const kind of ["heading", "paragraph", "list", "code", "quote", "rule", "table"]) expect(block).toContain(`"enum":["${kind}"]`);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/public/config/{appKey}",
        "/api/v1/public/columns/{appKey}",
        "/api/v1/public/versions/{appKey}",
        "/api/v1/console/workspaces/{wsId}/apps",
      ]),
    );
    expect(doc.paths["/api/v1/console/workspaces"].post.requestBody.content["application/json"].schema.required).toEqual(
      expect.arrayContaining(["name", "slug"]),
    );
    const docs = await t.app.inject({ url: "/docs/" });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers["content-type"]).toContain("text/html");
  });
});

describe("client IP", () => {
  async function loggedRemoteAddress(trustProxy: boolean): Promise<string | undefined> {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await createTestApp("sqlite", { trustProxy, logLevel: "info" }, { logStream: stream });
    try {
      await t.app.inject({ url: "/healthz", headers: { "x-forwarded-for": "203.0.113.9" }, remoteAddress: "127.0.0.1" });
    } finally {
      await t.close();
    }
    const incoming = lines.map((l) => JSON.parse(l)).find((l) => l.msg === "incoming request");
    return incoming?.req?.remoteAddress;
  }

  it("ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    expect(await loggedRemoteAddress(false)).toBe("127.0.0.1");
    expect(await loggedRemoteAddress(true)).toBe("203.0.113.9");
  });
});
