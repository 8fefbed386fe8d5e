import { parsePortalPath, portalPath, type PortalRoute } from "@tidings/client";

/**
 * The portal's addresses beyond the SDK's scheme (`@tidings/client`'s portal-paths.ts): a board's
 * own list at `/b/<board-slug>` and tag filters as repeated `?tag=<slug>`. The portal app in the
 * browser reads and writes the same forms (`@tidings/react`'s src/portal/portal-address.ts).
 */

/** A list's filters as an address carries them: a board slug and the tag slugs every request must carry. */
export interface ListFilters {
  board: string | undefined;
  tags: readonly string[];
}

export const NO_FILTERS: ListFilters = { board: undefined, tags: [] };

const BOARD_PATH = /^\/b\/([a-z0-9]+(?:-[a-z0-9]+)*)\/*$/;

/**
 * The screen of a path below `/p/<APP_KEY>` with the board it names: a board's address is the
 * requests screen of that board. Null for anything else.
 *
 * @example
 * ```ts
 * parsePortalAddress("/b/bugs"); // { route: { screen: "requests" }, board: "bugs" }
 * ```
 */
export function parsePortalAddress(rest: string): { route: PortalRoute; board: string | undefined } | null {
  const board = BOARD_PATH.exec(rest)?.[1];
  if (board !== undefined) return board.length <= 64 ? { route: { screen: "requests" }, board } : null;
  const route = parsePortalPath(rest);
  return route === null ? null : { route, board: undefined };
}

/**
 * The address of the requests list with these filters: the board's own path (else `/requests`)
 * and one `tag` parameter per tag.
 *
 * @example
 * ```ts
 * listAddress("app_demo", { board: "bugs", tags: ["mobile"] }); // "/p/app_demo/b/bugs?tag=mobile"
 * ```
 */
export function listAddress(appKey: string, filters: ListFilters): string {
  const path = filters.board === undefined ? portalPath(appKey, { screen: "requests" }) : `/p/${encodeURIComponent(appKey)}/b/${encodeURIComponent(filters.board)}`;
  const query = filters.tags.map((tag) => `tag=${encodeURIComponent(tag)}`).join("&");
  return query === "" ? path : `${path}?${query}`;
}
