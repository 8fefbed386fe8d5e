import type { FeatureRequestItem } from "@tidings/protocol";
import { contentTags, type Context } from "../context.js";
import { findItemRow, findItemViewer, listedItem, type ItemRow, type ItemViewer } from "./item.js";

/** A request's item may be this stale in the shared cache; votes, comments and console writes to its app drop it sooner. */
export const ITEM_CACHE_SECONDS = 10;

/** What every viewer shares of a request anyone may read: its item as an anonymous visitor sees it, and whose it is. */
export interface SharedItem {
  appId: string;
  boardId: string;
  requesterEndUserId: string | null;
  item: FeatureRequestItem;
}

const keyOf = (id: string) => `fr-item:${id}`;

/**
 * A request as the detail route starts from it: the shared item when the cache holds it (no
 * database read), else its row. Undefined when there is no such request.
 */
export async function readItem(ctx: Context, id: string): Promise<{ shared: SharedItem } | { row: ItemRow } | undefined> {
  const shared = await ctx.cache.get<SharedItem>(keyOf(id));
  if (shared !== undefined) return { shared };
  const row = await findItemRow(ctx.db.kysely, id);
  return row === undefined ? undefined : { row };
}

/**
 * The shared item of a row every viewer may read (approved, not merged), put in the cache under
 * its app's content tags like the anonymous listing pages; undefined for any other row, whose
 * item depends on who asks.
 */
export async function shareItem(ctx: Context, row: ItemRow): Promise<SharedItem | undefined> {
  if (row.moderation !== "approved" || row.mergedIntoId !== null) return undefined;
  const item = await listedItem(ctx.db.kysely, row, null);
  if (item === undefined) return undefined;
  const shared: SharedItem = { appId: row.appId, boardId: row.boardId, requesterEndUserId: row.requesterEndUserId, item };
  await ctx.cache.set(keyOf(row.id), shared, { ttlMs: ITEM_CACHE_SECONDS * 1000, tags: contentTags(row.appId) });
  return shared;
}

/** The shared item as one viewer sees it: their vote and whether it is their own request. */
export function itemFor(shared: SharedItem, viewer: ItemViewer | undefined): FeatureRequestItem {
  if (viewer === undefined) return shared.item;
  return { ...shared.item, hasVoted: viewer.hasVoted, isOwnRequest: shared.requesterEndUserId === viewer.id };
}

/**
 * Who reads a request (their end-user id and whether they voted for it), by the hash of their
 * token, through the shared cache under the app's content tags like the shared item: a vote, a
 * comment or a console write to the app drops it, so the caller's own vote shows at their next
 * read. Only callers the app knows are kept: one who is not yet an end user is looked up again,
 * so the proposal or vote that makes them one needs no cache of its own to be seen.
 */
export async function readItemViewer(ctx: Context, appId: string, hash: string, requestId: string): Promise<ItemViewer | undefined> {
  const key = `fr-viewer:${requestId}:${hash}`;
  const hit = await ctx.cache.get<ItemViewer>(key);
  if (hit !== undefined) return hit;
  const viewer = await findItemViewer(ctx.db.kysely, appId, hash, requestId);
  if (viewer !== undefined) await ctx.cache.set(key, viewer, { ttlMs: ITEM_CACHE_SECONDS * 1000, tags: contentTags(appId) });
  return viewer;
}
