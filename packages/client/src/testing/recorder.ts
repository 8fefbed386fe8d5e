import { FeedbackClient } from "../client.js";
import type { FeedbackClientOptions } from "../client-options.js";
import type { FetchLike } from "../request.js";
import { memoryStorage } from "../storage.js";

/** One request as the fake server saw it. */
export interface Seen {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Records requests; answers with `reply` (JSON 200 by default). Used for wire-shape checks only. */
export function recorder(reply: (seen: Seen) => Response | Promise<Response> = () => Response.json({})) {
  const seen: Seen[] = [];
  const fetch: FetchLike = async (input, init) => {
    const body = typeof init.body === "string" ? JSON.parse(init.body) : init.body;
    const entry = { url: new URL(input), method: init.method ?? "GET", headers: init.headers as Record<string, string>, body };
    seen.push(entry);
    return reply(entry);
  };
  return { seen, fetch };
}

/** A client of `app_demo` at a base URL with trailing slashes, with storage and the token `tok-1`. */
export function client(fetch: FetchLike, options: Partial<FeedbackClientOptions> = {}) {
  return new FeedbackClient({ baseUrl: "https://api.example.com//", appKey: "app_demo", fetch, storage: memoryStorage(), userToken: "tok-1", ...options });
}

/** `METHOD /path` of each request, without the `/api/v1` prefix. */
export const requests = (seen: Seen[]) => seen.map((s) => `${s.method} ${s.url.pathname.replace("/api/v1", "")}`);
