import { portalPath, portalSlug, type PortalRoute } from "@tidings/client";
import escapeHtml from "escape-html";
import { linkedRequests, toPublicEntry } from "../changelog/entry-shapes.js";
import { signInPage, type PortalScreen, type ScreenInput } from "./portal-screen.js";
import { summary, textOf } from "./screen-text.js";

/** Releases shown on the server-rendered changelog. */
const CHANGELOG_LIMIT = 20;

/** The published release notes, or one release at its own address. */
export async function changelogScreen({ ctx, app, key, roadmapOpen }: ScreenInput, route: Extract<PortalRoute, { screen: "changelog" | "release" }>): Promise<PortalScreen> {
  const db = ctx.db.kysely;
  const changelogOpen = app.allowAnonymousChangelog === 1;
  if (!changelogOpen) return signInPage(app, portalPath(key, route.screen === "release" ? { screen: "release", id: route.id } : route), "changelog");
  let query = db.selectFrom("changelogEntries").selectAll().where("appId", "=", app.id).where("status", "=", "published").where("publishedAt", "is not", null);
  if (route.screen === "release") query = query.where("id", "=", route.id);
  const rows = await query.orderBy("publishedAt", "desc").orderBy("id", "desc").limit(CHANGELOG_LIMIT).execute();
  const links = roadmapOpen ? await linkedRequests(db, rows.map((r) => r.id), true) : new Map<string, { id: string; title: string }[]>();
  const entries = rows.map((r) => toPublicEntry(r, links.get(r.id) ?? []));
  const article = (e: (typeof entries)[number], heading: "h2" | "h3") => {
    const href = portalPath(key, { screen: "release", id: e.id }, e.title);
    const linked = e.linkedRequests.map((l) => `<li><a href="${escapeHtml(portalPath(key, { screen: "request", id: l.id }, l.title))}">${escapeHtml(l.title)}</a></li>`);
    return [
      `<article class="td-release">`,
      `<${heading}><a href="${escapeHtml(href)}">${escapeHtml(e.title)}</a></${heading}>`,
      `<p class="td-meta">${e.versionLabel === null ? "" : `${escapeHtml(e.versionLabel)} · `}<time datetime="${escapeHtml(e.publishedAt)}">${escapeHtml(e.publishedAt.slice(0, 10))}</time></p>`,
      // Rendered from Markdown and sanitised (changelog/markdown.ts), as the public API serves it.
      e.html,
      linked.length === 0 ? "" : `<ul class="td-linked">\n${linked.join("\n")}\n</ul>`,
      `</article>`,
    ]
      .filter((line) => line !== "")
      .join("\n");
  };
  if (route.screen === "release") {
    const entry = entries[0];
    if (entry === undefined) return { kind: "missing" };
    const path = portalPath(key, { screen: "release", id: entry.id }, entry.title);
    if (route.slug !== portalSlug(entry.title)) return { kind: "redirect", path };
    return { kind: "page", title: `${entry.title} · ${app.name}`, description: summary(textOf(entry.html)) || `${app.name} release notes`, path, ogType: "article", body: article(entry, "h2") };
  }
  return {
    kind: "page",
    title: `What's new · ${app.name}`,
    description: `Release notes of ${app.name}.`,
    path: portalPath(key, route),
    ogType: "website",
    body: `<h2>What's new</h2>\n${entries.length === 0 ? "<p>No releases yet.</p>" : entries.map((e) => article(e, "h3")).join("\n")}`,
  };
}
