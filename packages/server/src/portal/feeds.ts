import { portalPath } from "@tidings/client";
import escapeHtml from "escape-html";
import { Feed } from "feed";
import { sql } from "kysely";
import type { AppRow } from "../apps/app-row.js";
import type { BoardRow } from "../boards/boards.js";
import { toPublicEntry } from "../changelog/entry-shapes.js";
import type { Context } from "../context.js";
import { onPublicBoard } from "../db/public-board.js";
import { listAddress } from "./addresses.js";
import { summary } from "./screen-text.js";

/** Entries per feed: feed readers poll, they do not page. */
export const FEED_LIMIT = 50;

/** The feeds of an app's portal, by the file name they are served under (`/p/<APP_KEY>/<name>`). */
export const FEEDS = {
  "changelog.rss": { of: "changelog", format: "rss" },
  "changelog.atom": { of: "changelog", format: "atom" },
  "shipped.rss": { of: "shipped", format: "rss" },
  "shipped.atom": { of: "shipped", format: "atom" },
} as const;
export type FeedName = keyof typeof FEEDS;

/** The feeds a public board has of its own (`/p/<APP_KEY>/b/<board-slug>/<name>`): its shipped requests. */
export const BOARD_FEEDS = ["shipped.rss", "shipped.atom"] as const satisfies readonly FeedName[];
export type BoardFeedName = (typeof BOARD_FEEDS)[number];

/** The path a feed is served at: the app's, or a public board's own. */
export function feedPath(appKey: string, name: FeedName, board?: Pick<BoardRow, "slug">): string {
  const base = `/p/${encodeURIComponent(appKey)}`;
  return board === undefined ? `${base}/${name}` : `${base}/b/${encodeURIComponent(board.slug)}/${name}`;
}

/** Characters XML 1.0 forbids (C0 controls but tab and newlines, lone surrogates, U+FFFE/FFFF): dropped from feed text. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlText(text: string): string {
  return text.replace(NOT_XML, "");
}

/**
 * An RSS 2.0 or Atom 1.0 document (built by the `feed` package) of an app's published releases,
 * newest first, or of its newly shipped requests: public ones that reached a done column, most
 * recently shipped first; with `board` (a public one: the caller checks), only that board's.
 * `origin` makes the links absolute.
 *
 * @example
 * ```ts
 * const xml = await buildFeed(ctx, app, "changelog.atom", "https://feedback.example.com");
 * ```
 */
export async function buildFeed(ctx: Context, app: AppRow, name: FeedName, origin: string, board?: BoardRow): Promise<string> {
  const { of, format } = FEEDS[name];
  const db = ctx.db.kysely;
  const url = (path: string) => `${origin}${path}`;
  const home = url(
    board !== undefined ? listAddress(app.appKey, { board: board.slug, tags: [] }) : portalPath(app.appKey, of === "changelog" ? { screen: "changelog" } : { screen: "roadmap" }),
  );
  const shippedTitle = board === undefined ? `${app.name}: shipped requests` : `${app.name} · ${board.name}: shipped requests`;
  const items: { title: string; id: string; link: string; date: Date; description: string; content?: string }[] = [];

  if (of === "changelog") {
    const rows = await db
      .selectFrom("changelogEntries")
      .selectAll()
      .where("appId", "=", app.id)
      .where("status", "=", "published")
      .where("publishedAt", "is not", null)
      .orderBy("publishedAt", "desc")
      .orderBy("id", "desc")
      .limit(FEED_LIMIT)
      .execute();
    for (const row of rows) {
      const entry = toPublicEntry(row, []);
      const link = url(portalPath(app.appKey, { screen: "release", id: entry.id }, entry.title));
      const title = entry.versionLabel === null ? entry.title : `${entry.versionLabel}: ${entry.title}`;
      const text = summary(entry.html.replace(/<[^>]*>/g, " "));
      items.push({ title, id: link, link, date: new Date(entry.publishedAt), description: text, content: entry.html });
    }
  } else {
    // The first `shipped` event of each public request (triage writes one per request).
    let query = db
      .selectFrom("featureRequestEvents as ev")
      .innerJoin("featureRequests as fr", "fr.id", "ev.featureRequestId")
      .leftJoin("appVersions as v", "v.id", "fr.versionId")
      .select(["fr.id", "fr.title", "fr.description", "v.label as versionLabel", sql<string>`min(ev.created_at)`.as("shippedAt")])
      .where("ev.appId", "=", app.id)
      .where("ev.type", "=", "shipped")
      .where("fr.moderation", "=", "approved")
      .where("fr.mergedIntoId", "is", null)
      .where(onPublicBoard());
    if (board !== undefined) query = query.where("fr.boardId", "=", board.id);
    const rows = await query
      .groupBy(["fr.id", "fr.title", "fr.description", "v.label"])
      .orderBy("shippedAt", "desc")
      .orderBy("fr.id", "desc")
      .limit(FEED_LIMIT)
      .execute();
    for (const row of rows) {
      const link = url(portalPath(app.appKey, { screen: "request", id: row.id }, row.title));
      items.push({ title: row.title, id: link, link, date: new Date(row.shippedAt), description: summary(row.description) || `Shipped${row.versionLabel === null ? "" : ` in ${row.versionLabel}`}.` });
    }
  }

  const feed = new Feed({
    title: xmlText(of === "changelog" ? `${app.name}: what's new` : shippedTitle),
    description: xmlText(
      of === "changelog" ? `Release notes of ${app.name}.` : board === undefined ? `Feature requests ${app.name} has shipped.` : `Requests on ${app.name}'s ${board.name} board that have shipped.`,
    ),
    id: home,
    link: home,
    language: "en",
    ...(app.iconUrl?.startsWith("https://") ? { image: app.iconUrl } : {}),
    // Atom requires <updated>: the newest item's date, or the app's last change on an empty feed.
    updated: items[0]?.date ?? new Date(app.updatedAt),
    generator: "Tidings",
    copyright: xmlText(app.name),
    feedLinks: { [format]: url(feedPath(app.appKey, name, board)) },
  });
  // Atom marks entry titles and summaries `type="html"`: plain text is escaped so readers show it
  // as typed ("<b>" and "&" included) rather than as markup.
  const plain = (text: string) => (format === "atom" ? escapeHtml(xmlText(text)) : xmlText(text));
  for (const item of items) {
    feed.addItem({
      title: plain(item.title),
      id: item.id,
      link: item.link,
      date: item.date,
      description: plain(item.description),
      ...(item.content === undefined ? {} : { content: xmlText(item.content) }),
    });
  }
  return format === "rss" ? feed.rss2() : feed.atom1();
}
