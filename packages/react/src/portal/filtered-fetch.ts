import type { FetchLike } from "@tidings/client";
import type { ListFilters } from "./portal-address.js";

const LISTING = "/api/v1/feature-requests";

/**
 * The portal client's fetch: while a board or tags filter the list, the listing (and its
 * searches) asks the server for them (`board=`, repeated `tag=`), and a proposal goes to that
 * board. Every other call goes through untouched.
 *
 * The SDK's `listFeatureRequests` and `submitFeatureRequest` take no board or tag yet; once they
 * do, the portal passes its filters to them instead and this goes.
 *
 * @example
 * ```ts
 * new FeedbackClient({ baseUrl, appKey, fetch: filteredFetch(() => filters.current) });
 * ```
 */
export function filteredFetch(filters: () => ListFilters, fetchImpl: FetchLike = (input, init) => fetch(input, init)): FetchLike {
  return (input, init) => {
    const { board, tags } = filters();
    const url = new URL(input, window.location.href);
    if ((board === undefined && tags.length === 0) || !url.pathname.endsWith(LISTING)) return fetchImpl(input, init);
    const method = init.method ?? "GET";
    if (method === "GET") {
      if (board !== undefined) url.searchParams.set("board", board);
      for (const tag of tags) url.searchParams.append("tag", tag);
      return fetchImpl(url.toString(), init);
    }
    if (method === "POST" && board !== undefined && typeof init.body === "string") {
      const body = JSON.parse(init.body) as Record<string, unknown>;
      return fetchImpl(input, { ...init, body: JSON.stringify({ board, ...body }) });
    }
    return fetchImpl(input, init);
  };
}
