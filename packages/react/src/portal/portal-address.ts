import { parsePortalPath, portalPath, type PortalRoute } from "@tidings/client";

/**
 * The portal's addresses beyond the SDK's scheme (`portalPath`, `parsePortalPath`): a board's own
 * list at `/b/<board-slug>` and tag filters as repeated `?tag=<slug>` on the requests list. The
 * server answers the same forms (`@tidings/server`'s src/portal/addresses.ts).
 */

/** The requests list's filters: a board slug and the tag slugs every request must carry. */
export interface ListFilters {
  board: string | undefined;
  tags: readonly string[];
}

export const NO_FILTERS: ListFilters = { board: undefined, tags: [] };

const BOARD_PATH = /^\/b\/([a-z0-9]+(?:-[a-z0-9]+)*)\/*$/;

/** The same filters (so a change of screen that keeps them lists nothing again). */
export function sameFilters(a: ListFilters, b: ListFilters): boolean {
  return a.board === b.board && a.tags.join(",") === b.tags.join(",");
}

/**
 * The screen and filters of an address of the portal at `/p/<appKey>`; anything the portal does
 * not know opens its home, as before.
 *
 * @example
 * ```ts
 * readAddress("app_demo", "/p/app_demo/b/bugs", "?tag=mobile"); // { route: { screen: "requests" }, filters: { board: "bugs", tags: ["mobile"] } }
 * ```
 */
export function readAddress(appKey: string, pathname: string, search: string): { route: PortalRoute; filters: ListFilters } {
  const base = `/p/${encodeURIComponent(appKey)}`;
  const rest = pathname.startsWith(base) ? pathname.slice(base.length) : "";
  const board = BOARD_PATH.exec(rest)?.[1];
  const route: PortalRoute = board !== undefined ? { screen: "requests" } : (parsePortalPath(rest) ?? { screen: "home" });
  const tags = route.screen === "requests" ? [...new Set(new URLSearchParams(search).getAll("tag"))] : [];
  return { route, filters: { board, tags } };
}

/**
 * The address of a screen: the SDK's path, a board's own path for its list, and the list's tags
 * as `tag` parameters next to the page's others (`locale`, `theme`, `embed`), which are kept.
 *
 * @example
 * ```ts
 * addressOf("app_demo", { screen: "requests" }, { board: "bugs", tags: ["mobile"] }, "?embed=1"); // "/p/app_demo/b/bugs?embed=1&tag=mobile"
 * ```
 */
export function addressOf(appKey: string, route: PortalRoute, filters: ListFilters, search: string, title?: string): string {
  const list = route.screen === "requests";
  const path = list && filters.board !== undefined ? `/p/${encodeURIComponent(appKey)}/b/${encodeURIComponent(filters.board)}` : portalPath(appKey, route, title);
  const params = new URLSearchParams(search);
  params.delete("tag");
  if (list) for (const tag of filters.tags) params.append("tag", tag);
  const query = params.toString();
  return query === "" ? path : `${path}?${query}`;
}
