import { createWorkspaceWithApp, type Workspace } from "./console-client.js";
import type { TestApp } from "./test-app.js";

/**
 * What the public feature-request suites send, over HTTP to the server `app()` answers (a getter:
 * suites open it in `beforeAll`): fresh apps, each in a workspace of its own whose slug starts with
 * `prefix` and that lists proposals as they come (moderation off unless `settings` say otherwise),
 * and the proposals, listing pages and votes of an app's users.
 *
 * @example
 * ```ts
 * const board = publicBoard(() => t, `ws-${dialect}`);
 * const ws = await board.freshApp();
 * const id = (await board.propose(ws.appKey, "Dark mode")).json().featureRequestId;
 * await board.vote(id, "voter");
 * expect((await board.list(`appKey=${ws.appKey}`)).body.requests[0].voteCount).toBe(1);
 * ```
 */
export function publicBoard(app: () => TestApp, prefix: string) {
  let slug = 0;
  return {
    /** A new app in a workspace of its own, with `settings` applied over moderation off. */
    async freshApp(settings: Record<string, unknown> = {}): Promise<Workspace> {
      const t = app();
      const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `${prefix}-${++slug}`);
      const set = await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { moderationPolicy: "none", ...settings });
      if (set.status !== 200) throw new Error(`settings: ${set.status} ${JSON.stringify(set.body)}`);
      return ws;
    },

    /** `POST /api/v1/feature-requests` as the user behind `token`, with `extra` headers. */
    propose(appKey: string, title: string, description = "", token = "proposer", extra: Record<string, string> = {}) {
      return app().app.inject({
        method: "POST",
        url: "/api/v1/feature-requests",
        headers: { "x-user-token": token, ...extra },
        payload: { appKey, title, description },
      });
    },

    /** `GET /api/v1/feature-requests?<query>`: its status, JSON body and headers. */
    async list(query: string, headers: Record<string, string> = {}) {
      const res = await app().app.inject({ url: `/api/v1/feature-requests?${query}`, headers });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    },

    /** A vote (`POST`) or its withdrawal (`DELETE`) on request `id` by the user behind `token`. */
    vote(id: string, token: string, method: "POST" | "DELETE" = "POST", headers: Record<string, string> = {}) {
      return app().app.inject({ method, url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token, ...headers }, payload: {} });
    },
  };
}
