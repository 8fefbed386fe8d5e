import { boardAudience } from "../boards/access.js";
import type { BoardRow } from "../boards/boards.js";
import { appTag, type Context } from "../context.js";
import { listTags, type TagRow } from "../tags/tags.js";
import type { ListFilters } from "./addresses.js";

/** How long an app's public tags may be reused from the cache (tag writes drop them at once). */
const TAGS_CACHE_MS = 60_000;

/**
 * What the portal shows of an app's organisation. Its pages are the same for every visitor, so
 * this is what an anonymous one sees: the public boards and the public tags, never a private
 * board or a team-only tag.
 */
export interface PortalOrganisation {
  /** The public boards, by position. */
  boards: BoardRow[];
  /** The boards a shared listing reads: undefined when every board of the app is public. */
  boardIds: string[] | undefined;
  /** The public tags, by name. */
  tags: TagRow[];
}

/** A list's filters resolved against the organisation. */
export interface ResolvedFilters {
  board: BoardRow | undefined;
  tags: TagRow[];
}

/**
 * The public boards and tags of an app, through the shared cache.
 *
 * @example
 * ```ts
 * const { boards, tags } = await loadOrganisation(ctx, app.id);
 * ```
 */
export async function loadOrganisation(ctx: Context, appId: string): Promise<PortalOrganisation> {
  const [audience, tags] = await Promise.all([boardAudience(ctx.db.kysely, appId, { token: null, identified: false }, ctx.cache), publicTags(ctx, appId)]);
  return { boards: audience.boards, boardIds: audience.all ? undefined : audience.boards.map((b) => b.id), tags };
}

async function publicTags(ctx: Context, appId: string): Promise<TagRow[]> {
  const key = `portal-tags:${appId}`;
  const hit = await ctx.cache.get<TagRow[]>(key);
  if (hit !== undefined) return hit;
  const rows = (await listTags(ctx.db.kysely, appId)).filter((t) => t.visibility === "public");
  await ctx.cache.set(key, rows, { ttlMs: TAGS_CACHE_MS, tags: [appTag(appId)] });
  return rows;
}

/** Whether the portal names boards: only when visitors see more than one. */
export function hasSeveralBoards(org: PortalOrganisation): boolean {
  return org.boards.length > 1;
}

/**
 * The board and tags an address names, or undefined when one of them is unknown, private or
 * team-only: the page is then the same 404 as an unknown address, so nothing hidden shows through.
 */
export function resolveFilters(org: PortalOrganisation, filters: ListFilters): ResolvedFilters | undefined {
  const board = filters.board === undefined ? undefined : org.boards.find((b) => b.slug === filters.board);
  if (filters.board !== undefined && board === undefined) return undefined;
  const tags: TagRow[] = [];
  for (const slug of new Set(filters.tags)) {
    const tag = org.tags.find((t) => t.slug === slug);
    if (tag === undefined) return undefined;
    tags.push(tag);
  }
  return { board, tags };
}
