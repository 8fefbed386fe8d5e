import type { AppRow } from "../apps/app-row.js";
import type { BoardRow } from "../boards/boards.js";
import { BOARD_FEEDS, feedPath, FEEDS, type FeedName } from "./feeds.js";
import type { FeedLink } from "./portal-page.js";

/** The feeds a portal page links to in its head: the app's own, as its settings allow, and a board's on its list. */
export function pageFeeds(appRow: AppRow, origin: string, board: BoardRow | undefined): FeedLink[] {
  const feedHref = (name: FeedName) => origin + feedPath(appRow.appKey, name);
  return [
    ...(appRow.allowAnonymousChangelog === 1
      ? [
          { type: "application/rss+xml" as const, title: `${appRow.name}: what's new (RSS)`, href: feedHref("changelog.rss") },
          { type: "application/atom+xml" as const, title: `${appRow.name}: what's new (Atom)`, href: feedHref("changelog.atom") },
        ]
      : []),
    ...(appRow.allowAnonymousRoadmap === 1
      ? [
          { type: "application/rss+xml" as const, title: `${appRow.name}: shipped (RSS)`, href: feedHref("shipped.rss") },
          { type: "application/atom+xml" as const, title: `${appRow.name}: shipped (Atom)`, href: feedHref("shipped.atom") },
        ]
      : []),
    // A board's own list also links to its own feeds.
    ...(appRow.allowAnonymousRoadmap === 1 && board !== undefined
      ? BOARD_FEEDS.map((name) => ({
          type: FEEDS[name].format === "rss" ? ("application/rss+xml" as const) : ("application/atom+xml" as const),
          title: `${appRow.name} · ${board.name}: shipped (${FEEDS[name].format === "rss" ? "RSS" : "Atom"})`,
          href: origin + feedPath(appRow.appKey, name, board),
        }))
      : []),
  ];
}
