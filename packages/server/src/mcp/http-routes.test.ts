import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, TEST_ADMIN_TOKEN, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
};
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe.each(testDialects())("POST /mcp on %s", (dialect) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: { ...GENEROUS_RATE_LIMITS, mcp: { limit: 5, windowSeconds: 60 } } });
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "mcp-http");
    const member = await ws.console.post(`/workspaces/${ws.wsId}/members`, { email: "mo@example.com", role: "member" });
    token = (await ws.console.post(`/users/${member.body.member.userId}/tokens`, { name: "mcp", workspaceId: ws.wsId })).body.token;
  });
  afterAll(() => t.close());

  const post = (headers: Record<string, string>, payload: unknown = INITIALIZE, remoteAddress = "10.1.0.1") =>
    t.app.inject({ method: "POST", url: "/mcp", headers: { ...HEADERS, ...headers }, payload: payload as object, remoteAddress });

  it("answers an initialize in JSON with the server's name and its tools capability", async () => {
    const res = await post({ authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.headers["x-request-id"]).toBeDefined();
    expect(res.headers["mcp-session-id"]).toBeUndefined();
    expect(res.json()).toMatchObject({ id: 1, result: { serverInfo: { name: "tidings" }, capabilities: { tools: {} } } });
  });

  it("refuses a missing, unknown or operator token with 401 in the API's envelope and a Bearer challenge", async () => {
    for (const [authorization, message] of [
      [undefined, /token is required/],
      ["Bearer tdg_forged", /Invalid or revoked/],
      [`Bearer ${TEST_ADMIN_TOKEN}`, /not TIDINGS_ADMIN_TOKEN/],
    ] as const) {
      const res = await post(authorization === undefined ? {} : { authorization }, INITIALIZE, "10.1.0.2");
      expect(res.statusCode).toBe(401);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="tidings"');
      expect(res.json()).toMatchObject({ code: "unauthorized", error: expect.stringMatching(message) });
    }
  });

  it("asks an unbound token whose user has several workspaces to be bound to one", async () => {
    const first = await createWorkspaceWithApp(t.app, t.admin.authorization, "mcp-two-a");
    const second = await createWorkspaceWithApp(t.app, t.admin.authorization, "mcp-two-b");
    const member = await first.console.post(`/workspaces/${first.wsId}/members`, { email: "two@example.com", role: "admin" });
    await second.console.post(`/workspaces/${second.wsId}/members`, { email: "two@example.com", role: "admin" });
    const unbound = (await first.console.post(`/users/${member.body.member.userId}/tokens`, { name: "everywhere" })).body.token;
    const res = await post({ authorization: `Bearer ${unbound}` }, INITIALIZE, "10.1.0.3");
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("token_workspace_required");
  });

  it("answers GET and DELETE with 405: the server is stateless", async () => {
    for (const method of ["GET", "DELETE"] as const) {
      const res = await t.app.inject({ method, url: "/mcp", headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe("POST");
    }
  });

  it("reads bodies up to the console API's 1 MB, and leaves the other routes as they were", async () => {
    const big = { ...INITIALIZE, params: { ...INITIALIZE.params, padding: "x".repeat(1024 * 1024) } };
    const res = await post({ authorization: `Bearer ${token}` }, big, "10.1.0.4");
    expect(res.statusCode).toBe(413);
    expect((await t.app.inject({ url: "/api/v1/console/me", headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: "/healthz" })).statusCode).toBe(200);
    const docs = (await t.app.inject({ url: "/api/v1/openapi.json" })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(docs.paths)).not.toContain("/mcp");
  });

  it("spends the mcp rate limit per address: 429 with Retry-After past it", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await post({ authorization: `Bearer ${token}` }, INITIALIZE, "10.1.0.99")).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await post({ authorization: `Bearer ${token}` }, INITIALIZE, "10.1.0.99");
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(refused.json().code).toBe("rate_limited");
    expect((await post({ authorization: `Bearer ${token}` }, INITIALIZE, "10.1.0.100")).statusCode).toBe(200);
  });
});
