import { portalPath } from "@tidings/client";
import escapeHtml from "escape-html";
import type { AppRow } from "../apps/app-row.js";
import type { Context } from "../context.js";
import { listColumns } from "../roadmap/columns.js";
import { onPublicBoard } from "../db/public-board.js";
import { listAddress } from "./addresses.js";
import { hasSeveralBoards, type PortalOrganisation } from "./organisation.js";
import { portalSections } from "./screens.js";

/** Requests and releases listed, most recently updated first (the protocol allows 50 000 URLs). */
export const SITEMAP_LIMIT = 10_000;

/**
 * The sitemap (sitemaps.org 0.9) of an indexable app's portal: its sections, roadmap columns, public
 * boards' lists (when there are several), public requests and published releases, each under its
 * canonical address. Sections the app does not show (its `sdk.features`) or does not show to
 * anonymous visitors are left out, as are their requests or releases; private boards never appear.
 *
 * @example
 * ```ts
 * const xml = await buildSitemap(ctx, app, await loadOrganisation(ctx, app.id), "https://feedback.example.com");
 * ```
 */
export async function buildSitemap(ctx: Context, app: AppRow, org: PortalOrganisation, origin: string): Promise<string> {
  const db = ctx.db.kysely;
  const key = app.appKey;
  const sections = portalSections(app);
  const urls: { loc: string; lastmod?: string }[] = [{ loc: portalPath(key, { screen: "home" }) }];
  if (app.allowAnonymousRoadmap === 1 && sections.includes("requests")) {
    urls.push({ loc: portalPath(key, { screen: "requests" }) });
    // `org` holds the public boards only.
    if (hasSeveralBoards(org)) for (const board of org.boards) urls.push({ loc: listAddress(key, { board: board.slug, tags: [] }) });
  }
  if (app.allowAnonymousRoadmap === 1 && sections.includes("roadmap")) {
    urls.push({ loc: portalPath(key, { screen: "roadmap" }) });
    for (const column of await listColumns(db, app.id)) {
      if (column.isVisible === 1) urls.push({ loc: portalPath(key, { screen: "roadmap", column: column.slug }) });
    }
  }
  if (app.allowAnonymousRoadmap === 1 && (sections.includes("requests") || sections.includes("roadmap"))) {
    const requests = await db
      .selectFrom("featureRequests")
      .select(["id", "title", "updatedAt"])
      .where("appId", "=", app.id)
      .where("moderation", "=", "approved")
      .where("mergedIntoId", "is", null)
      .where(onPublicBoard("feature_requests.board_id"))
      .orderBy("updatedAt", "desc")
      .limit(SITEMAP_LIMIT)
      .execute();
    for (const r of requests) urls.push({ loc: portalPath(key, { screen: "request", id: r.id }, r.title), lastmod: r.updatedAt });
  }
  if (app.allowAnonymousChangelog === 1 && sections.includes("changelog")) {
    urls.push({ loc: portalPath(key, { screen: "changelog" }) });
    const releases = await db
      .selectFrom("changelogEntries")
      .select(["id", "title", "updatedAt"])
      .where("appId", "=", app.id)
      .where("status", "=", "published")
      .where("publishedAt", "is not", null)
      .orderBy("publishedAt", "desc")
      .limit(SITEMAP_LIMIT)
      .execute();
    for (const r of releases) urls.push({ loc: portalPath(key, { screen: "release", id: r.id }, r.title), lastmod: r.updatedAt });
  }
  const body = urls
    .map((u) => `<url><loc>${escapeHtml(origin + u.loc)}</loc>${u.lastmod === undefined ? "" : `<lastmod>${escapeHtml(u.lastmod)}</lastmod>`}</url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}
