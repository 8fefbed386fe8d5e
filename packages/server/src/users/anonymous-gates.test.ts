import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { GENEROUS_RATE_LIMITS, createTestApp, type TestApp } from "@tidings/testing/test-app";

const FLAGS = ["allowAnonymousRoadmap", "allowAnonymousVote", "allowAnonymousFeedback", "allowAnonymousChangelog"] as const;
type Flag = (typeof FLAGS)[number];

/** The rows of the "Which flag gates what" table of docs/public-api.md: endpoint and flag. */
function gateTable(): { method: string; path: string; flag: Flag }[] {
  const doc = readFileSync(new URL("../../../../docs/public-api.md", import.meta.url), "utf8");
  const rows = [...doc.matchAll(/^\| `(GET|POST|PUT|DELETE) ([^`]+)` \| `(allowAnonymous\w+)` \|$/gm)];
  return rows.map(([, method, path, flag]) => {
    expect(FLAGS).toContain(flag);
    return { method: method!, path: path!, flag: flag as Flag };
  });
}

// The docs' table of which flag gates which endpoint is the contract: every row is checked, so
// the code and the table cannot drift apart silently (an upload session was gated but undocumented).
describe("the anonymous-access flags, as docs/public-api.md tables them", () => {
  let t: TestApp;
  let ws: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  let requestId: string;
  const anonymous = { "x-user-token": "9b2f1c1e-1111-4c4c-8888-00000000abcd" };

  beforeAll(async () => {
    t = await createTestApp("sqlite", { rateLimits: GENEROUS_RATE_LIMITS });
    ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "gates-co");
    const proposed = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: anonymous, payload: { appKey: ws.appKey, title: "Gated request", description: "For the gates" } });
    requestId = proposed.json().featureRequestId;
    expect((await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${requestId}`, { approved: true })).status).toBe(200);
  });
  afterAll(() => t.close());

  /** The request a client sends to a table row's endpoint, anonymously. */
  function call(method: string, path: string) {
    const url = path
      .replace("<APP_KEY>", ws.appKey)
      .replace("<id>", requestId)
      .concat(path === "/api/v1/feature-requests" || path.endsWith("/similar") ? `?appKey=${ws.appKey}&title=Gated` : "");
    const headers = { ...anonymous, "x-app-key": ws.appKey };
    const payloads: Record<string, unknown> = {
      "/api/v1/feature-requests": { appKey: ws.appKey, title: "Another request", description: "Anonymous" },
      "/api/v1/feedback": { appKey: ws.appKey, title: "Feedback", description: "Anonymous" },
      "/api/v1/uploads/sessions": { appKey: ws.appKey, files: [{ filename: "a.png", mimeType: "image/png", size: 10 }] },
      "/api/v1/feature-requests/<id>/comments": { body: "Anonymous comment" },
      "/api/v1/feature-requests/<id>/subscription": { email: "gates@example.com" },
      "/api/v1/public/apps/<APP_KEY>/changelog/subscribe": { email: "gates@example.com" },
    };
    if (path.startsWith("/api/v1/uploads/") && path !== "/api/v1/uploads/sessions") {
      return t.app.inject({ method: "POST", url, headers: { ...headers, "content-type": "multipart/form-data; boundary=x" }, payload: "--x--\r\n" });
    }
    return t.app.inject({ method: method as "GET", url, headers, ...(method === "GET" ? {} : { payload: payloads[path] ?? {} }) });
  }

  const setFlags = async (value: boolean) => {
    const res = await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, Object.fromEntries(FLAGS.map((f) => [f, value])));
    expect(res.status).toBe(200);
  };

  it("lists every gated endpoint once", () => {
    const rows = gateTable();
    expect(rows.length).toBeGreaterThan(15);
    expect(new Set(rows.map((r) => `${r.method} ${r.path}`)).size).toBe(rows.length);
  });

  it("refuses a caller who is not identified on every row while its flag is off, and only then", async () => {
    for (const row of gateTable()) {
      await setFlags(true);
      await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { [row.flag]: false });
      const refused = await call(row.method, row.path);
      expect({ row, status: refused.statusCode, body: refused.json() }).toMatchObject({ row, status: 401, body: { code: "authentication_required" } });
      // The other flags off, this one on: the row's own flag is the one that gates it.
      await setFlags(false);
      await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { [row.flag]: true });
      const open = await call(row.method, row.path);
      expect({ row, code: open.statusCode === 401 ? open.json().code : "not refused" }).toEqual({ row, code: "not refused" });
    }
  });
});
