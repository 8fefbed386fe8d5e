import type { FeatureRequestItem } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { publicTagsOf, tagPairsOf } from "../tags/public-tags.js";
import { toPublicTag } from "../tags/tags.js";
import type { SharedCache } from "../cache/shared-cache.js";
import { toItem } from "./items.js";
import { cursorAfter, pageStart } from "./list-cursor.js";
import { compareKeys, type OrderKey } from "./list-order.js";
import type { ListPage, ListQuery } from "./list-query.js";
import { newestOwnPending, ownPendingWindow, type OwnPendingRow } from "./own-pending.js";
import { ownMatches } from "./own-search.js";
import { searchTerms } from "../search/search-text.js";
import { personalisePage, type PageViewer } from "./page-viewer.js";

/**
 * A signed-in caller's `newest` or `top` page, built from the shared anonymous page of the same
 * query (cached, computed once for everyone) and their own pending requests: the window of their
 * newest (see own-pending.ts) read with its rows in one statement (on PostgreSQL the one that
 * looked the viewer up, see page-viewers.ts), narrowed by the page's board,
 * version and tag filters, merged into the shared page's order; only the tags of those landing
 * on the page are read. Building a whole personal page instead cost every
 * caller with a pending request several statements more per page, a share of callers that grows
 * as proposals wait for review. A search is the shared page when none of the caller's window
 * matches it. A `trending` page is the shared page when the requests voted on recently fill it
 * (`ranking`, see trending.ts). Undefined for the pages built in full (other `trending` pages,
 * `newest` and `top` by offset, searches the caller's own requests match), which read the same
 * window.
 */
export async function ownPage(
  db: Kysely<Database>,
  query: ListQuery,
  shared: ListPage,
  viewer: PageViewer,
  options: { shared?: SharedCache; ranking?: () => Promise<readonly string[]> } = {},
): Promise<ListPage | undefined> {
  const searching = query.q !== undefined && query.q.trim() !== "";
  if (!searching && query.sort === "trending" && options.ranking === undefined) return undefined;
  if (!searching && query.sort !== "trending" && query.offset > 0) return undefined;
  const personal = personalisePage(shared, viewer);
  // A search narrows the window by its words (see own-search.ts); any other page reads the window
  // with its rows and narrows it by the page's filters here.
  // Read with the viewer on PostgreSQL (see page-viewers.ts).
  const window = viewer.ownWindow ?? (searching ? undefined : await ownPendingWindow(db, query.appId, viewer.id));
  const own = window?.map((r) => r.id) ?? (await newestOwnPending(db, query.appId, viewer.id));
  if (own.length === 0) return personal;
  if (searching) {
    // The caller's matches first, then exactly the public search: without a match of theirs,
    // that is the shared page.
    const terms = searchTerms(query.q ?? "");
    return terms.length === 0 || (await ownMatches(db, query, own, terms)).length === 0 ? personal : undefined;
  }
  // The window's requests the filters keep, with whether the caller voted on each (≤ 50 rows).
  const kept = await keptByFilters(db, query, window!);
  if (query.sort === "trending") return ownTrendingPage(query, personal, kept, await options.ranking!());
  const order = query.sort === "top" ? "top" : "newest";
  // One approved since the window was read may be on the shared page already: listed once.
  const listed = new Set(shared.requests.map((r) => r.id));
  const mine = kept.filter((r) => !listed.has(r.id));
  const { after } = pageStart(query, true);
  const position = after === undefined ? undefined : { id: after.i, createdAt: after.c, voteCount: after.s === "top" ? after.v : 0 };
  const keyOf = (r: OrderKey): OrderKey => ({ id: r.id, createdAt: r.createdAt, voteCount: order === "top" ? r.voteCount : 0 });
  const onward = mine.filter((r) => position === undefined || compareKeys(order, keyOf(r), position) > 0);
  const merged = [...personal.requests.map((item) => ({ key: keyOf(item), item })), ...onward.map((r) => ({ key: keyOf(r), item: undefined }))]
    .sort((a, b) => compareKeys(order, a.key, b.key))
    .slice(0, query.limit);
  const wanted = merged.filter((m) => m.item === undefined).map((m) => m.key.id);
  const items = await ownItems(db, query.appId, wanted, new Map(mine.map((r) => [r.id, r])), options.shared);
  const requests = merged.map((m) => m.item ?? items.get(m.key.id)).filter((item): item is FeatureRequestItem => item !== undefined);
  const hasMore = shared.hasMore || shared.requests.length + onward.length > query.limit;
  const last = merged.at(-1)?.key;
  return {
    requests,
    total: shared.total + mine.length,
    hasMore,
    nextCursor: hasMore && last !== undefined ? cursorAfter(query, true, last, query.limit) : null,
  };
}

/**
 * The caller's `trending` page when the app's requests voted on recently (`hot`, the ranking the
 * shared page was built from) fill it: their own pending requests come after those, in `top`
 * order (see `trendingIds`), so the page is the shared one and only its total (and whether more
 * follow) counts them. Building it in full instead read the page again with every filter, for a
 * share of callers that grows as proposals wait for review. Undefined when the page reaches past
 * the ranking, or was built from another one (it changed since), for the full build.
 */
function ownTrendingPage(query: ListQuery, personal: ListPage, kept: readonly OwnPendingRow[], hot: readonly string[]): ListPage | undefined {
  const { offset } = pageStart(query, false);
  const end = offset + query.limit;
  const ids = personal.requests.map((r) => r.id);
  if (hot.length < end || ids.length !== query.limit || ids.some((id, i) => hot[offset + i] !== id)) return undefined;
  // One approved since the window was read may be on the page already: counted once.
  const listed = new Set(ids);
  const total = personal.total + kept.filter((r) => !listed.has(r.id)).length;
  const hasMore = total > end;
  const last = personal.requests.at(-1)!;
  return { ...personal, total, hasMore, nextCursor: hasMore ? cursorAfter(query, false, last, end) : null };
}

/**
 * The window's requests that the page's filters keep, as `ownPendingBy` would select them: the
 * version and boards from the rows themselves; the tags, when the page asks for any, from the
 * tags of the window's tagged requests (each must carry every tag asked for).
 */
async function keptByFilters(db: Kysely<Database>, query: ListQuery, window: readonly OwnPendingRow[]): Promise<OwnPendingRow[]> {
  const placed = window.filter(
    (r) => (query.versionId === undefined || r.versionId === query.versionId) && (query.boardIds === undefined || query.boardIds.includes(r.boardId)),
  );
  const wanted = [...new Set(query.tagIds ?? [])];
  if (wanted.length === 0) return placed;
  const tagged = placed.filter((r) => Boolean(r.tagged)).map((r) => r.id);
  if (tagged.length === 0) return [];
  const found = new Map<string, number>();
  for (const row of await tagPairsOf(db, tagged)) if (wanted.includes(row.tagId)) found.set(row.featureRequestId, (found.get(row.featureRequestId) ?? 0) + 1);
  return placed.filter((r) => found.get(r.id) === wanted.length);
}

/**
 * The items of the caller's own pending requests `ids`, from their window rows (`mine`), with the
 * public tags of those with tags.
 */
async function ownItems(db: Kysely<Database>, appId: string, ids: string[], mine: Map<string, OwnPendingRow>, shared: SharedCache | undefined): Promise<Map<string, FeatureRequestItem>> {
  if (ids.length === 0) return new Map();
  const rows = ids.map((id) => mine.get(id)).filter((r): r is OwnPendingRow => r !== undefined);
  const tagged = rows.filter((r) => Boolean(r.tagged)).map((r) => r.id);
  const tags = await publicTagsOf(db, appId, tagged, shared);
  return new Map(rows.map((r) => [r.id, toItem(r, { hasVoted: Boolean(r.hasVoted), isOwnRequest: true }, (tags.get(r.id) ?? []).map(toPublicTag))]));
}
