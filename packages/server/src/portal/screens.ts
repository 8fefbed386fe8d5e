import { portalPath, portalSlug, type PortalRoute } from "@tidings/client";
import type { FeatureRequestItem, PublicTag } from "@tidings/protocol";
import escapeHtml from "escape-html";
import { sdkOf, type AppRow } from "../apps/app-row.js";
import type { BoardRow } from "../boards/boards.js";
import { linkedRequests, toPublicEntry } from "../changelog/entries.js";
import type { Context } from "../context.js";
import { listComments } from "../feature-requests/comments.js";
import { findPublicItem } from "../feature-requests/item.js";
import { listFeatureRequests } from "../feature-requests/listing.js";
import { listColumns } from "../roadmap/columns.js";
import { loadProfile } from "../users/profile.js";
import { listAddress, NO_FILTERS, parsePortalAddress } from "./addresses.js";
import { hasSeveralBoards, resolveFilters, type PortalOrganisation, type ResolvedFilters } from "./organisation.js";

/** What the server knows of a portal address before any script runs. */
export type PortalScreen =
  | {
      kind: "page";
      title: string;
      description: string;
      path: string;
      ogType: "website" | "article";
      body: string;
      /** The board whose own list this is (its feeds join the app's in the head). */
      board?: BoardRow | undefined;
    }
  | { kind: "redirect"; path: string }
  | { kind: "missing" };

/** Requests shown on a server-rendered list (the app loads the rest). */
const LIST_LIMIT = 50;
/** Releases shown on the server-rendered changelog. */
const CHANGELOG_LIMIT = 20;
const COMMENT_LIMIT = 200;
const DESCRIPTION_CHARS = 200;

const plural = new Intl.PluralRules("en");

/** English counts for the server-rendered text (the app renders in the visitor's language). */
function count(n: number, one: string, other: string): string {
  return `${n} ${plural.select(n) === "one" ? one : other}`;
}

/** One line of at most {@link DESCRIPTION_CHARS} characters, cut at a word, for meta descriptions. */
export function summary(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= DESCRIPTION_CHARS) return line;
  const cut = line.slice(0, DESCRIPTION_CHARS - 1);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 80 ? cut.lastIndexOf(" ") : cut.length)}…`;
}

/** Text of sanitised HTML (release notes), for descriptions. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e] ?? "");
}

function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join("\n");
}

/**
 * A tag's chip: its name, after a dot of its colour when it has one. The dot is an SVG `fill`, not
 * a `style` attribute, which the page's Content-Security-Policy (`style-src 'self'`) would drop.
 */
function tagChip(tag: PublicTag, href: string | undefined): string {
  const dot = tag.color === null ? "" : `<svg class="td-tag-dot" width="8" height="8" viewBox="0 0 8 8" aria-hidden="true"><circle cx="4" cy="4" r="4" fill="${escapeHtml(tag.color)}"/></svg>`;
  return href === undefined ? `<span class="td-tag">${dot}${escapeHtml(tag.name)}</span>` : `<a class="td-tag" href="${escapeHtml(href)}">${dot}${escapeHtml(tag.name)}</a>`;
}

/** A request's public tags, each linking to the list filtered by it (`tagHref`). */
function tagChips(tags: readonly PublicTag[], tagHref: (slug: string) => string): string {
  return tags.length === 0 ? "" : ` <span class="td-tags">${tags.map((t) => tagChip(t, tagHref(t.slug))).join(" ")}</span>`;
}

function requestRow(appKey: string, item: FeatureRequestItem, tagHref: (slug: string) => string): string {
  const href = portalPath(appKey, { screen: "request", id: item.id }, item.title);
  const status = item.columnName === null ? "" : ` <span class="td-badge">${escapeHtml(item.columnName)}</span>`;
  return `<li class="td-card td-request"><span class="td-votes">${escapeHtml(count(item.voteCount, "vote", "votes"))}</span> <a href="${escapeHtml(href)}">${escapeHtml(item.title)}</a>${status}${tagChips(item.tags, tagHref)}</li>`;
}

function requestList(appKey: string, items: FeatureRequestItem[], empty: string, tagHref: (slug: string) => string): string {
  return items.length === 0 ? `<p>${escapeHtml(empty)}</p>` : `<ul class="td-list">\n${items.map((i) => requestRow(appKey, i, tagHref)).join("\n")}\n</ul>`;
}

/** Links to every public board's list and to all of them, when there are several. */
function boardNav(appKey: string, org: PortalOrganisation, current: BoardRow | undefined): string {
  if (!hasSeveralBoards(org)) return "";
  const link = (href: string, name: string, here: boolean) => `<a href="${escapeHtml(href)}"${here ? ' aria-current="page"' : ""}>${escapeHtml(name)}</a>`;
  const links = [
    link(listAddress(appKey, NO_FILTERS), "All boards", current === undefined),
    ...org.boards.map((b) => link(listAddress(appKey, { board: b.slug, tags: [] }), b.name, b.id === current?.id)),
  ];
  return `<nav class="td-boards" aria-label="Boards">${links.join(" ")}</nav>`;
}

/** The page of a path that names no screen, or that the app does not show to anonymous visitors. */
function signInPage(app: AppRow, path: string, what: string): PortalScreen {
  return { kind: "page", title: app.name, description: `${app.name}: ${what}`, path, ogType: "website", body: `<p>${escapeHtml(`Sign in to see the ${what}.`)}</p>` };
}

/**
 * Loads and renders the screen of a portal address (`rest` is the path after `/p/<APP_KEY>`,
 * `tags` its `tag` parameters) as an anonymous visitor sees it: the same requests, comments and
 * releases the public API answers without a user token, under the app's anonymous-access
 * settings, on its public boards only. Wrong or missing slugs redirect to the canonical address;
 * an unknown or private board, or an unknown or team-only tag, is missing.
 *
 * @example
 * ```ts
 * await loadScreen(ctx, app, org, "/requests/fr_…"); // { kind: "redirect", path: "/p/app_demo/requests/fr_…-dark-mode" }
 * ```
 */
export async function loadScreen(ctx: Context, app: AppRow, org: PortalOrganisation, rest: string, tags: readonly string[] = []): Promise<PortalScreen> {
  const address = parsePortalAddress(rest);
  if (address === null) return { kind: "missing" };
  const { route, board } = address;
  // Tags filter the requests list; elsewhere they are left alone, like any other parameter.
  const filters = resolveFilters(org, { board, tags: route.screen === "requests" ? tags : [] });
  if (filters === undefined) return { kind: "missing" };
  // With one board, its list is the requests list: one address for it, the one links already use.
  if (filters.board !== undefined && !hasSeveralBoards(org)) return { kind: "redirect", path: portalPath(app.appKey, route) };
  const sections = portalSections(app);
  if (route.screen === "home") {
    // The first section the app shows, as the portal app opens it, at the home address.
    const first = sections[0];
    if (first === undefined) return { kind: "page", title: app.name, description: app.name, path: portalPath(app.appKey, route), ogType: "website", body: "" };
    const screen = await render(ctx, app, org, { screen: first }, { board: undefined, tags: [] });
    return screen.kind === "page" ? { ...screen, path: portalPath(app.appKey, route) } : screen;
  }
  const section = SECTION_OF[route.screen];
  if (section !== undefined && !sections.includes(section) && !(route.screen === "request" && sections.includes("roadmap"))) {
    const path = route.screen === "requests" ? listAddress(app.appKey, { board, tags: [] }) : portalPath(app.appKey, route);
    return { kind: "page", title: app.name, description: app.name, path, ogType: "website", body: "<p>This page is not available.</p>" };
  }
  return render(ctx, app, org, route, filters);
}

type Section = "roadmap" | "requests" | "changelog" | "feedback";
const SECTION_OF: Partial<Record<PortalRoute["screen"], Section>> = {
  roadmap: "roadmap",
  requests: "requests",
  request: "requests",
  changelog: "changelog",
  release: "changelog",
  feedback: "feedback",
};

/** The sections the app's `sdk.features` show, in the portal's order (its tabs). */
export function portalSections(app: AppRow): Section[] {
  const features = sdkOf(app).features;
  const shown: Record<Section, boolean> = { roadmap: features.roadmap, requests: features.featureRequests, changelog: features.changelog, feedback: features.feedback };
  return (["roadmap", "requests", "changelog", "feedback"] as const).filter((section) => shown[section]);
}

async function render(ctx: Context, app: AppRow, org: PortalOrganisation, route: PortalRoute, filters: ResolvedFilters): Promise<PortalScreen> {
  const db = ctx.db.kysely;
  const key = app.appKey;
  const roadmapOpen = app.allowAnonymousRoadmap === 1;
  // Portal pages are the same for every visitor: private boards never appear on them.
  const boardIds = org.boardIds;
  const list = (sort: "top" | "newest") =>
    listFeatureRequests(db, ctx.db.dialect, ctx.clock, {
      appId: app.id,
      viewerEndUserId: null,
      limit: LIST_LIMIT,
      offset: 0,
      cursor: undefined,
      versionId: undefined,
      boardIds: filters.board === undefined ? boardIds : [filters.board.id],
      tagIds: filters.tags.map((t) => t.id),
      q: undefined,
      sort,
    });
  /** A tag's link: the requests list filtered by it (on the board shown, if any). */
  const tagHref = (slug: string) => listAddress(key, { board: filters.board?.slug, tags: [slug] });

  switch (route.screen) {
    case "home":
    case "roadmap": {
      const path = portalPath(key, route);
      if (!roadmapOpen) return signInPage(app, path, "roadmap");
      const columns = (await listColumns(db, app.id)).filter((c) => c.isVisible === 1);
      const shown = route.screen === "roadmap" && route.column !== undefined ? columns.filter((c) => c.slug === route.column) : columns;
      if (shown.length === 0 && route.screen === "roadmap" && route.column !== undefined) return { kind: "missing" };
      const items = (await list("top")).requests;
      const sections = shown.map((c) => {
        const inColumn = items.filter((i) => i.columnId === c.id);
        const href = portalPath(key, { screen: "roadmap", column: c.slug });
        return `<section class="td-column">\n<h2><a href="${escapeHtml(href)}">${escapeHtml(c.name)}</a></h2>\n${requestList(key, inColumn, "Nothing here yet.", tagHref)}\n</section>`;
      });
      const single = shown.length === 1 && route.screen === "roadmap" && route.column !== undefined ? shown[0] : undefined;
      return {
        kind: "page",
        title: single === undefined ? `Roadmap · ${app.name}` : `${single.name} · ${app.name}`,
        description: single === undefined ? `What ${app.name} is planning, building and has shipped.` : `${single.name}: requests on the ${app.name} roadmap.`,
        path,
        ogType: "website",
        body: sections.join("\n"),
      };
    }
    case "requests": {
      const { board, tags } = filters;
      const path = listAddress(key, { board: board?.slug, tags: [] });
      if (!roadmapOpen) return signInPage(app, path, "requests");
      const page = await list("top");
      const heading = board?.name ?? "Feature requests";
      const tagged = tags.length === 0 ? "" : ` tagged ${tags.map((t) => t.name).join(", ")}`;
      const filterLine =
        tags.length === 0
          ? ""
          : `<p class="td-filter">Tagged ${tags.map((t) => tagChip(t, undefined)).join(" ")} · <a href="${escapeHtml(path)}">Show all</a></p>`;
      const body = [
        `<h2>${escapeHtml(heading)}</h2>`,
        board === undefined || board.description === "" ? "" : paragraphs(board.description),
        boardNav(key, org, board),
        filterLine,
        requestList(key, page.requests, tags.length === 0 ? "No requests yet." : "No requests with these tags.", tagHref),
      ];
      const counted = count(page.total, "request", "requests");
      return {
        kind: "page",
        title: `${heading}${tagged} · ${app.name}`,
        description:
          board === undefined
            ? `Vote on ${app.name}'s feature requests or suggest your own (${counted}).`
            : summary(board.description) || `${board.name} on ${app.name}: vote on requests or suggest your own (${counted}).`,
        path,
        ogType: "website",
        body: body.filter((part) => part !== "").join("\n"),
        board,
      };
    }
    case "request": {
      if (!roadmapOpen) return signInPage(app, portalPath(key, { screen: "request", id: route.id }), "request");
      const item = await findPublicItem(db, route.id);
      if (item === undefined || item.appId !== app.id || (boardIds !== undefined && !boardIds.includes(item.boardId))) return { kind: "missing" };
      // The board is named when visitors see several; its name links to its list.
      const board = hasSeveralBoards(org) ? org.boards.find((b) => b.id === item.boardId) : undefined;
      const path = portalPath(key, { screen: "request", id: item.id }, item.title);
      if (route.slug !== portalSlug(item.title)) return { kind: "redirect", path };
      const comments = await listComments(db, item.id, { limit: COMMENT_LIMIT, cursor: undefined });
      const commentItems = comments.comments.map((c) => {
        const who = c.authorName ?? (c.isTeam ? "Team" : "Anonymous");
        const author = c.authorClerkId === null ? `<strong>${escapeHtml(who)}</strong>` : `<a href="${escapeHtml(portalPath(key, { screen: "profile", userId: c.authorClerkId }))}"><strong>${escapeHtml(who)}</strong></a>`;
        return `<li class="td-comment">${author}${c.isTeam ? ' <span class="td-badge">Team</span>' : ""} <time datetime="${escapeHtml(c.createdAt)}">${escapeHtml(c.createdAt.slice(0, 10))}</time>\n${paragraphs(c.body)}</li>`;
      });
      const status = item.columnName ?? "Open";
      const body = [
        `<article class="td-detail">`,
        `<h2>${escapeHtml(item.title)}</h2>`,
        `<p class="td-meta"><span class="td-badge">${escapeHtml(status)}</span> <span class="td-votes">${escapeHtml(count(item.voteCount, "vote", "votes"))}</span>${item.releasedVersion === null ? "" : ` · Shipped in ${escapeHtml(item.releasedVersion)}`}${board === undefined ? "" : ` · <a class="td-board" href="${escapeHtml(listAddress(key, { board: board.slug, tags: [] }))}">${escapeHtml(board.name)}</a>`}</p>`,
        item.tags.length === 0 ? "" : `<p class="td-meta">${tagChips(item.tags, (slug) => listAddress(key, { board: undefined, tags: [slug] })).trimStart()}</p>`,
        paragraphs(item.description),
        `<section class="td-comments">\n<h3>${escapeHtml(count(comments.total, "comment", "comments"))}</h3>`,
        commentItems.length === 0 ? "" : `<ol>\n${commentItems.join("\n")}\n</ol>`,
        `</section>`,
        `</article>`,
      ].filter((line) => line !== "");
      return {
        kind: "page",
        title: `${item.title} · ${app.name}`,
        description: summary(item.description) || `${status} · ${count(item.voteCount, "vote", "votes")} · ${app.name}`,
        path,
        ogType: "article",
        body: body.join("\n"),
      };
    }
    case "changelog":
    case "release": {
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
    case "feedback":
      return { kind: "page", title: `Feedback · ${app.name}`, description: `Send feedback to the ${app.name} team.`, path: portalPath(key, route), ogType: "website", body: "<h2>Send feedback</h2>" };
    case "profile": {
      const found = await loadProfile(ctx, route.userId, key);
      if (found === undefined) return { kind: "missing" };
      const name = found.profile.displayName ?? "Anonymous";
      const comments = found.hideComments || !roadmapOpen ? [] : found.recentComments.filter((c) => c.appId === app.id);
      const commentItem = (c: (typeof comments)[number]) =>
        `<li><a href="${escapeHtml(portalPath(key, { screen: "request", id: c.featureRequestId }, c.featureRequestTitle))}">${escapeHtml(c.featureRequestTitle)}</a>\n${paragraphs(c.body)}</li>`;
      return {
        kind: "page",
        title: `${name} · ${app.name}`,
        description: `${name} on ${app.name}'s feedback board.`,
        path: portalPath(key, route),
        ogType: "website",
        body: `<h2>${escapeHtml(name)}</h2>\n${comments.length === 0 ? "" : `<ul>\n${comments.map(commentItem).join("\n")}\n</ul>`}`,
      };
    }
  }
}
