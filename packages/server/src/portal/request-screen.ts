import { portalPath, portalSlug, type PortalRoute } from "@tidings/client";
import escapeHtml from "escape-html";
import { listComments } from "../feature-requests/comment-pages.js";
import { findPublicItem } from "../feature-requests/item.js";
import { listAddress } from "./addresses.js";
import { hasSeveralBoards } from "./organisation.js";
import { signInPage, type PortalScreen, type ScreenInput } from "./portal-screen.js";
import { tagChips } from "./request-html.js";
import { count, paragraphs, summary } from "./screen-text.js";

const COMMENT_LIMIT = 200;

/** One request with its status, votes, tags and comments; a wrong slug redirects to the right one. */
export async function requestScreen({ ctx, app, org, key, roadmapOpen }: ScreenInput, route: Extract<PortalRoute, { screen: "request" }>): Promise<PortalScreen> {
  const db = ctx.db.kysely;
  // Portal pages are the same for every visitor: private boards never appear on them.
  const boardIds = org.boardIds;
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
