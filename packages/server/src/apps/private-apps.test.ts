import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routesOf, type RouteSpec } from "@tidings/testing/fuzz/openapi-walker";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { GENEROUS_RATE_LIMITS, createTestApp, type TestApp } from "@tidings/testing/test-app";

const UNKNOWN_KEY = "app_0000000000000000000000unknown";
const UNKNOWN_REQUEST = "fr_01kdvdna00zzzzzzzzzzzzzzzz";

/** What a scanner compares: the status, the code and the body's shape. */
function seen(res: { statusCode: number; body: string }) {
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = res.body;
  }
  const shape = body !== null && typeof body === "object" ? Object.keys(body).sort() : typeof body;
  return { status: res.statusCode, code: (body as { code?: unknown } | null)?.code, shape, error: (body as { error?: unknown } | null)?.error };
}

// A private app (allowPublic off) must answer every public endpoint exactly as an app key that
// does not exist, or a scanner learns which keys exist. The routes come from the route table
// (the OpenAPI document), so an endpoint added later is checked too.
describe("a private app on every public endpoint", () => {
  let t: TestApp;
  let privateKey: string;
  let privateRequest: string;
  beforeAll(async () => {
    t = await createTestApp("sqlite", { rateLimits: GENEROUS_RATE_LIMITS });
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "hidden-co");
    const proposed = await t.app.inject({
      method: "POST",
      url: "/api/v1/feature-requests",
      headers: { "x-user-token": "scanner" },
      payload: { appKey: ws.appKey, title: "A request of a private app", description: "Visible before the app went private" },
    });
    privateRequest = proposed.json().featureRequestId;
    await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${privateRequest}`, { approved: true });
    expect((await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { allowPublic: false })).status).toBe(200);
    privateKey = ws.appKey;
  });
  afterAll(() => t.close());

  /** The request a client would send to `route` for the app `appKey` (or its request `requestId`). */
  function requestFor(route: RouteSpec, appKey: string, requestId: string) {
    const url = route.path.replace("{appKey}", appKey).replace("{id}", requestId).replace("{uploadId}", "upl_unknown").replace("{userId}", "u_unknown");
    const query = route.query.some((q) => q.name === "appKey") ? `?appKey=${appKey}&token=x` : "?token=x";
    return {
      method: route.method as "GET",
      url: `${url}${query}`,
      headers: { "x-user-token": "scanner", "x-app-key": appKey, accept: "application/json" },
      ...(route.method === "GET" || route.method === "DELETE" ? {} : { payload: { appKey, title: "Probe", description: "Probe", email: "probe@example.com", files: [], body: "Probe" } }),
    };
  }

  it("answers as for an unknown key: same status, code and body shape", async () => {
    // Every public route: those that take no app answer alike for both by construction.
    const routes = routesOf(t.app.swagger()).filter((r) => !r.path.startsWith("/api/v1/console") && r.path !== "/metrics");
    expect(routes.length).toBeGreaterThan(30);
    const differing: string[] = [];
    for (const route of routes) {
      const unknown = seen(await t.app.inject(requestFor(route, UNKNOWN_KEY, UNKNOWN_REQUEST)));
      const hidden = seen(await t.app.inject(requestFor(route, privateKey, privateRequest)));
      if (JSON.stringify(hidden) !== JSON.stringify(unknown)) differing.push(`${route.method} ${route.path}: private ${JSON.stringify(hidden)}, unknown ${JSON.stringify(unknown)}`);
    }
    expect(differing).toEqual([]);
  });
});
