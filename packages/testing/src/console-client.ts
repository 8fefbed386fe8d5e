import { expect } from "vitest";
import type { App } from "../../server/src/http/types.js";

/**
 * Small helpers over `app.inject` for console calls, so tests read as the flows they check.
 */
export function consoleClient(app: App, authorization: string) {
  const call = async (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url: `/api/v1/console${url}`,
      headers: { authorization },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: res.statusCode, body: res.body.length > 0 ? res.json() : undefined, headers: res.headers };
  };
  return {
    get: (url: string) => call("GET", url),
    post: (url: string, payload?: unknown) => call("POST", url, payload ?? {}),
    put: (url: string, payload: unknown) => call("PUT", url, payload),
    patch: (url: string, payload: unknown) => call("PATCH", url, payload),
    delete: (url: string) => call("DELETE", url),
  };
}

/** Creates a workspace and an app through the console API; answers their ids, key and secret. */
export async function createWorkspaceWithApp(app: App, authorization: string, slug = "acme") {
  const c = consoleClient(app, authorization);
  const ws = await c.post("/workspaces", { name: "Acme", slug });
  if (ws.status !== 201) throw new Error(`workspace: ${ws.status} ${JSON.stringify(ws.body)}`);
  const wsId: string = ws.body.workspace.id;
  const created = await c.post(`/workspaces/${wsId}/apps`, { name: "Acme Notes" });
  if (created.status !== 201) throw new Error(`app: ${created.status} ${JSON.stringify(created.body)}`);
  return {
    wsId,
    appId: created.body.appId as string,
    appKey: created.body.appKey as string,
    signingSecret: created.body.signingSecret as string,
    console: c,
  };
}

/** A workspace with one app, as {@link createWorkspaceWithApp} answers it. */
export type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;

/** Offsets a console list must refuse with 400: not finite, past 2^53, past 1 000 000, negative, fractional. */
const BAD_OFFSETS = ["Infinity", "1e309", "99999999999999999999999", "9007199254740993", "1000001", "-1", "1.5"];

/**
 * Asserts that the console list at `path` refuses every bad offset with 400 `validation_failed`
 * and pages up to offset 1 000 000, where `listKey` is empty.
 */
export async function expectOffsetBounds(client: ReturnType<typeof consoleClient>, path: string, listKey: string): Promise<void> {
  const join = path.includes("?") ? "&" : "?";
  for (const offset of BAD_OFFSETS) {
    const res = await client.get(`${path}${join}offset=${offset}`);
    expect({ offset, status: res.status, code: res.body.code }).toEqual({ offset, status: 400, code: "validation_failed" });
  }
  const last = await client.get(`${path}${join}offset=1000000`);
  expect(last.status).toBe(200);
  expect(last.body[listKey]).toEqual([]);
}
