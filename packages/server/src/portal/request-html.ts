import { portalPath } from "@tidings/client";
import type { FeatureRequestItem, PublicTag } from "@tidings/protocol";
import escapeHtml from "escape-html";
import type { BoardRow } from "../boards/boards.js";
import { listAddress, NO_FILTERS } from "./addresses.js";
import { hasSeveralBoards, type PortalOrganisation } from "./organisation.js";
import { count } from "./screen-text.js";

/**
 * A tag's chip: its name, after a dot of its colour when it has one. The dot is an SVG `fill`, not
 * a `style` attribute, which the page's Content-Security-Policy (`style-src 'self'`) would drop.
 */
export function tagChip(tag: PublicTag, href: string | undefined): string {
  const dot = tag.color === null ? "" : `<svg class="td-tag-dot" width="8" height="8" viewBox="0 0 8 8" aria-hidden="true"><circle cx="4" cy="4" r="4" fill="${escapeHtml(tag.color)}"/></svg>`;
  return href === undefined ? `<span class="td-tag">${dot}${escapeHtml(tag.name)}</span>` : `<a class="td-tag" href="${escapeHtml(href)}">${dot}${escapeHtml(tag.name)}</a>`;
}

/** A request's public tags, each linking to the list filtered by it (`tagHref`). */
export function tagChips(tags: readonly PublicTag[], tagHref: (slug: string) => string): string {
  return tags.length === 0 ? "" : ` <span class="td-tags">${tags.map((t) => tagChip(t, tagHref(t.slug))).join(" ")}</span>`;
}

/** One request of a list: its votes, its linked title, its status and tags. */
function requestRow(appKey: string, item: FeatureRequestItem, tagHref: (slug: string) => string): string {
  const href = portalPath(appKey, { screen: "request", id: item.id }, item.title);
  const status = item.columnName === null ? "" : ` <span class="td-badge">${escapeHtml(item.columnName)}</span>`;
  return `<li class="td-card td-request"><span class="td-votes">${escapeHtml(count(item.voteCount, "vote", "votes"))}</span> <a href="${escapeHtml(href)}">${escapeHtml(item.title)}</a>${status}${tagChips(item.tags, tagHref)}</li>`;
}

/** A list of requests, or `empty` when there are none. */
export function requestList(appKey: string, items: FeatureRequestItem[], empty: string, tagHref: (slug: string) => string): string {
  return items.length === 0 ? `<p>${escapeHtml(empty)}</p>` : `<ul class="td-list">\n${items.map((i) => requestRow(appKey, i, tagHref)).join("\n")}\n</ul>`;
}

/** Links to every public board's list and to all of them, when there are several. */
export function boardNav(appKey: string, org: PortalOrganisation, current: BoardRow | undefined): string {
  if (!hasSeveralBoards(org)) return "";
  const link = (href: string, name: string, here: boolean) => `<a href="${escapeHtml(href)}"${here ? ' aria-current="page"' : ""}>${escapeHtml(name)}</a>`;
  const links = [
    link(listAddress(appKey, NO_FILTERS), "All boards", current === undefined),
    ...org.boards.map((b) => link(listAddress(appKey, { board: b.slug, tags: [] }), b.name, b.id === current?.id)),
  ];
  return `<nav class="td-boards" aria-label="Boards">${links.join(" ")}</nav>`;
}
