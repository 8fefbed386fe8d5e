import type { FetchLike } from "@tidings/client";

/** A request the fake API received; header names are lower-case. */
export interface FakeRequest {
  method: string;
  url: URL;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * A route of the fake API: answers a path (and method) with a JSON status and body. A route that
 * throws makes the fetch reject with that error (a lost connection), the call still recorded.
 */
export type FakeRoute = (request: FakeRequest) => { status: number; body?: unknown; headers?: Record<string, string> } | undefined;

/** A fetch that answers from `routes` and records every call; unmatched calls get 404. */
export function fakeFetch(routes: FakeRoute[]) {
  const calls: FakeRequest[] = [];
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : init?.body;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    const request = { method, url, body, headers };
    calls.push(request);
    for (const route of routes) {
      const answer = route(request);
      if (answer !== undefined) {
        return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
          status: answer.status,
          headers: { "content-type": "application/json", ...answer.headers },
        });
      }
    }
    return new Response(JSON.stringify({ error: "Not found", code: "not_found" }), { status: 404, headers: { "content-type": "application/json" } });
  };
  return { fetch, calls };
}

export const demoConfig = (sdk: Record<string, unknown> = {}) => ({
  appId: "app_1",
  appKey: "app_test",
  name: "Test app",
  allowPublic: true,
  allowedPlatforms: ["ios", "android"],
  allowAnonymousRoadmap: true,
  allowAnonymousVote: true,
  allowAnonymousFeedback: true,
  allowAnonymousChangelog: true,
  maxAttachmentBytes: 1000,
  sdk,
});

export const item = <Extra extends Record<string, unknown> = Record<never, never>>(id: string, extra: Extra = {} as Extra) => ({
  id,
  appId: "app_1",
  title: `Request ${id}`,
  description: "",
  status: "planned",
  approved: true,
  voteCount: 3,
  hasVoted: false,
  isOwnRequest: false,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
  ...extra,
});

export const column = (id: string, position: number, isVisible = true) => ({
  id,
  appId: "app_1",
  name: `Column ${id}`,
  slug: id,
  position,
  isVisible,
  isSystem: false,
  kind: "normal",
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z",
});
