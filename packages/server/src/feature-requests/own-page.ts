import type { FeatureRequestItem } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { executeNamed, idIn } from "../db/named-statements.js";
import { publicTagsOf } from "../tags/public-tags.js";
import { toPublicTag } from "../tags/tags.js";
import { itemRows, recentCommenters, toItem, type CommentersCache, type ItemRow } from "./items.js";
import { cursorAfter, pageStart } from "./list-cursor.js";
import { compareKeys, type OrderKey } from "./list-order.js";
import type { ListPage, ListQuery } from "./list-query.js";
import { ownPendingBy } from "./listed.js";
import { newestOwnPending, ownPendingWindow, type OwnPendingRow } from "./own-pending.js";
import { ownMatches } from "./own-search.js";
import { searchTerms } from "../search/search-text.js";
import { personalisePage, type PageViewer } from "./page-viewer.js";

/**
 * A signed-in caller's `newest` or `top` page, built from the shared anonymous page of the same
 * query (cached, computed once for everyone) and their own pending requests: the window of their
 * newest (see own-pending.ts) read by primary key, merged into the shared page's order, and only
 * those landing on the page read as items. Building a whole personal page instead cost every
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
  options: { commenters?: CommentersCache; ranking?: () => Promise<readonly string[]> } = {},
): Promise<ListPage | undefined> {
  const searching = query.q !== undefined && query.q.trim() !== "";
  if (!searching && query.sort === "trending" && options.ranking === undefined) return undefined;
  if (!searching && query.sort !== "trending" && query.offset > 0) return undefined;
  const personal = personalisePage(shared, viewer);
  // A page without filters merges or counts the window as it is: read with its rows.
  const unfiltered = !searching && query.versionId === undefined && query.boardIds === undefined && (query.tagIds ?? []).length === 0;
  const window = unfiltered ? await ownPendingWindow(db, query.appId, viewer.id) : undefined;
  const own = window?.map((r) => r.id) ?? (await newestOwnPending(db, query.appId, viewer.id));
  if (own.length === 0) return personal;
  if (!searching && query.sort === "trending") return ownTrendingPage(db, query, personal, own, await options.ranking!(), window);
  // A search lists the caller's matches first, then exactly the public search (see own-search.ts):
  // without a match of theirs, that is the shared page.
  if (searching) {
    const terms = searchTerms(query.q ?? "");
    return terms.length === 0 || (await ownMatches(db, query, own, terms)).length === 0 ? personal : undefined;
  }
  const order = query.sort === "top" ? "top" : "newest";
  const listed = new Set(shared.requests.map((r) => r.id));
  // The window's requests the filters keep, with whether the caller voted on each (≤ 50 rows).
  // One approved since the window was read may be on the shared page already: listed once.
  const mine = (
    window ??
    (await db
      .selectFrom("featureRequests as fr")
      .where(ownPendingBy(query, own))
      .select(["fr.id", "fr.createdAt", "fr.voteCount"])
      .select((eb) =>
        eb
          .exists(eb.selectFrom("featureRequestVotes as v").select("v.featureRequestId").whereRef("v.featureRequestId", "=", "fr.id").where("v.endUserId", "=", viewer.id))
          .as("hasVoted"),
      )
      .execute())
  ).filter((r) => !listed.has(r.id));
  const { after } = pageStart(query, true);
  const position = after === undefined ? undefined : { id: after.i, createdAt: after.c, voteCount: after.s === "top" ? after.v : 0 };
  const keyOf = (r: OrderKey): OrderKey => ({ id: r.id, createdAt: r.createdAt, voteCount: order === "top" ? r.voteCount : 0 });
  const onward = mine.filter((r) => position === undefined || compareKeys(order, keyOf(r), position) > 0);
  const merged = [...personal.requests.map((item) => ({ key: keyOf(item), item })), ...onward.map((r) => ({ key: keyOf(r), item: undefined }))]
    .sort((a, b) => compareKeys(order, a.key, b.key))
    .slice(0, query.limit);
  const wanted = merged.filter((m) => m.item === undefined).map((m) => m.key.id);
  const known = window === undefined ? undefined : new Map(window.map((r) => [r.id, r]));
  const items = await ownItems(db, query.appId, wanted, new Set(mine.filter((r) => Boolean(r.hasVoted)).map((r) => r.id)), options.commenters, known);
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
async function ownTrendingPage(
  db: Kysely<Database>,
  query: ListQuery,
  personal: ListPage,
  own: readonly string[],
  hot: readonly string[],
  window: readonly OwnPendingRow[] | undefined,
): Promise<ListPage | undefined> {
  const { offset } = pageStart(query, false);
  const end = offset + query.limit;
  const ids = personal.requests.map((r) => r.id);
  if (hot.length < end || ids.length !== query.limit || ids.some((id, i) => hot[offset + i] !== id)) return undefined;
  // The window's requests the filters keep (≤ 50 rows); one approved since the window was read
  // may be on the page already: counted once.
  const listed = new Set(ids);
  // Without filters, the window itself.
  const mine = (window ?? (await db.selectFrom("featureRequests as fr").where(ownPendingBy(query, own)).select("fr.id").execute())).filter((r) => !listed.has(r.id));
  const total = personal.total + mine.length;
  const hasMore = total > end;
  const last = personal.requests.at(-1)!;
  return { ...personal, total, hasMore, nextCursor: hasMore ? cursorAfter(query, false, last, end) : null };
}

/**
 * The items of the caller's own pending requests `ids`: their rows (read together by id, unless
 * `known` holds them already, see `ownPendingWindow`), recent commenters of those with comments,
 * and public tags of those with tags (all of them when their rows were read here).
 */
async function ownItems(
  db: Kysely<Database>,
  appId: string,
  ids: string[],
  voted: Set<string>,
  commentersCache: CommentersCache | undefined,
  known?: Map<string, OwnPendingRow>,
): Promise<Map<string, FeatureRequestItem>> {
  if (ids.length === 0) return new Map();
  const rows: ItemRow[] =
    known !== undefined
      ? ids.map((id) => known.get(id)).filter((r): r is OwnPendingRow => r !== undefined)
      : // The ids as one array on PostgreSQL: a statement prepared once for any number of them.
        await executeNamed(db, itemRows(db).where(idIn(db, "fr.id", ids)));
  // A request without comments has no recent commenters (its count is of the visible ones).
  const commented = rows.filter((r) => r.commentCount > 0).map((r) => r.id);
  const tagged = known === undefined ? ids : rows.filter((r) => Boolean((r as OwnPendingRow).tagged)).map((r) => r.id);
  const [commenters, tags] = await Promise.all([recentCommenters(db, commented, commentersCache), publicTagsOf(db, appId, tagged, commentersCache?.shared)]);
  return new Map(
    rows.map((r) => [r.id, toItem(r, commenters.get(r.id) ?? [], { hasVoted: voted.has(r.id), isOwnRequest: true }, (tags.get(r.id) ?? []).map(toPublicTag))]),
  );
}
