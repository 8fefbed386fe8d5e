import type { FeatureRequestItem } from "@tidings/protocol";
import type { ListPage, ListQuery } from "./list-query.js";
import { sql, type Kysely } from "kysely";
import type { SharedCache } from "../cache/shared-cache.js";
import type { Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import { executeNamed, idIn } from "../db/named-statements.js";
import type { Database } from "../db/schema.js";
import { publicTagsOf } from "../tags/public-tags.js";
import { toPublicTag, type TagRow } from "../tags/tags.js";
import { ITEM_COLUMNS, ITEM_JOINED_COLUMNS, toItem, type ItemRow } from "./items.js";
import { firstPageRows, firstPageRowsByAppKey, isFirstPage, type KeyedPageRow } from "./first-page.js";
import { cursorAfter, pageStart } from "./list-cursor.js";
import { afterKey, listedInOrder } from "./list-order.js";
import { listedBy } from "./listed.js";
import { countListed, keepCount } from "./listed-count.js";
import { newestOwnPending } from "./own-pending.js";
import { searchWithOwn } from "./own-search.js";
import { rankOnPostgres } from "./postgres-search.js";
import { searchTerms } from "../search/search-text.js";
import { RANK_ALIAS, rankOnSqlite, searchJoin } from "./sqlite-search.js";
import { recentVoteCounts, TRENDING_WINDOW_DAYS, trendingIds } from "./trending.js";

export type { ListPage, ListQuery } from "./list-query.js";


/**
 * One page of an app's feature requests: approved ones plus the viewer's newest own pending ones
 * (see own-pending.ts), merged duplicates excluded. Searches rank by relevance (then votes, then age); `newest` and
 * `top` page by keyset cursors, `trending` and searches by offset cursors.
 */
export async function listFeatureRequests(
  db: Kysely<Database>,
  dialect: DialectName,
  clock: Clock,
  query: ListQuery,
  cache?: { shared: SharedCache; tags: string[] },
  keyed?: KeyedFirstPage,
): Promise<ListPage> {
  const terms = query.q === undefined ? [] : searchTerms(query.q);
  const searching = query.q !== undefined && query.q.trim() !== "";
  if (searching && terms.length === 0) return { requests: [], total: 0, hasMore: false, nextCursor: null };

  // The page every visitor starts from, in prepared statements.
  if (isFirstPage(query)) {
    if (keyed !== undefined && keyed.sort === query.sort && keyed.limit === query.limit && query.boardIds === undefined && keyed.rows[0]?.appId === query.appId) {
      return keyedPage(query, keyed.rows, cache);
    }
    const [rows, total] = await Promise.all([firstPageRows(db, query), countListed(db, query, cache)]);
    return pageOf(db, query, rows, total, { keyset: true, offset: 0, shared: cache?.shared });
  }
  const viewer = query.viewerEndUserId;
  // The viewer's newest pending requests, the only ones of theirs this page may show or count.
  const own = viewer === null ? [] : await newestOwnPending(db, query.appId, viewer);
  const base = db.selectFrom("featureRequests as fr").where(listedBy(query, own));
  // `newest` and `top` page by keyset cursors (a position in their order), the others by offsets.
  const keyset = !searching && query.sort !== "trending";
  const { after, offset } = pageStart(query, keyset);
  const since = new Date(clock.now().getTime() - TRENDING_WINDOW_DAYS * 86_400_000).toISOString();

  // Public searches (but SQLite's with a version filter) and `trending` lists are ranked first;
  // the table then only fills in the page. A viewer's searches put their own pending matches
  // before the public search's results. A viewer's `newest` and `top` pages merge their own
  // pending requests into the public order, reading only the page's slice of each.
  // SQLite's ranked search reads the app's whole public index: a board or tag filter takes the
  // joined search below, which applies every filter, as a version filter does.
  const scoped = query.boardIds !== undefined || (query.tagIds?.length ?? 0) > 0;
  const rankSearch = searching && dialect === "sqlite" && viewer === null && query.versionId === undefined && !scoped;
  const rankTrending = !searching && query.sort === "trending";
  // A tag's page is read in order from the tag's rows (see listedInOrder), a `top` page from the
  // copies of that order (migration 0046), then by primary key.
  const orderedFirst = keyset && (viewer !== null || (query.tagIds?.length ?? 0) > 0 || query.sort === "top");
  const rankPage = { limit: query.limit + 1, offset };
  const ranked = rankSearch
    ? await rankOnSqlite(db, query, terms, rankPage)
    : searching && viewer === null && dialect === "postgres"
      ? await rankOnPostgres(db, query, terms, since, rankPage)
    : searching && viewer !== null
      ? await searchWithOwn(db, query, own, terms, offset, (anonymous) => listFeatureRequests(db, dialect, clock, anonymous, cache))
      : rankTrending
      ? { ids: await trendingIds(db, query, since, rankPage, cache, own), total: await countListed(db, query, cache, own) }
      : orderedFirst
        ? await (async () => {
            const keys = await listedInOrder(db, query, query.sort === "top" ? "top" : "newest", after, offset + query.limit + 1, own);
            return { ids: keys.slice(offset).map((r) => r.id), total: await countListed(db, query, cache, own) };
          })()
        : null;
  // A ranked page is read by primary key alone: with the listing's filters and order SQLite
  // preferred an app index and walked the whole board (tens of ms on 100k requests).
  const withSearch =
    ranked !== null
      ? db.selectFrom("featureRequests as fr").where(idIn(db, "fr.id", ranked.ids.length > 0 ? ranked.ids : [""]))
      : searching
        ? base.innerJoin(searchJoin(db, query.appId, terms).as("s"), "s.featureRequestId", "fr.id")
        : base;

  const total =
    ranked !== null
      ? ranked.total
      : searching
        ? (await withSearch.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow()).total
        : await countListed(db, query, cache, own);

  // Other `trending` lists are ranked above; only SQLite's searches with a version filter order
  // by recent votes here.
  const trendingSearch = query.sort === "trending" && ranked === null;
  let page = withSearch
    .leftJoin("boardColumns as c", "c.id", "fr.columnId")
    .leftJoin("appVersions as v", "v.id", "fr.versionId")
    .leftJoin("endUsers as requester", "requester.id", "fr.requesterEndUserId")
    // Not `fr.*`: the search copies of the text would be read for every row and thrown away.
    .select(ITEM_COLUMNS)
    .select(ITEM_JOINED_COLUMNS)
    .select((eb) =>
      (viewer === null
        ? sql<number>`0`
        : eb
            .selectFrom("featureRequestVotes as mine")
            .select((e) => e.fn.countAll<number>().as("n"))
            .whereRef("mine.featureRequestId", "=", "fr.id")
            .where("mine.endUserId", "=", viewer)
      ).as("hasVoted"),
    )
    // A trending search's ties in relevance go to recent votes.
    .$if(trendingSearch, (qb) => qb.leftJoin(recentVoteCounts(db, since), "rc.featureRequestId", "fr.id"))
    .limit(query.limit + 1);

  if (searching && ranked === null) page = page.orderBy(sql.ref(`s.${RANK_ALIAS}`), "asc");
  if (trendingSearch) page = page.orderBy(sql`coalesce(rc.recent, 0)`, "desc");
  if (ranked === null) {
    // Unranked and unsearched, only `newest` pages are read here: `top` and `trending` are ranked above.
    if (searching) page = page.orderBy("fr.voteCount", "desc");
    page = page.orderBy("fr.createdAt", "desc").orderBy("fr.id", "desc");
  }

  if (after !== undefined && ranked === null) page = page.where(afterKey(after));
  if (offset > 0 && ranked === null) page = page.offset(offset);

  let rows = await executeNamed(db, page);
  if (ranked !== null) {
    const position = new Map(ranked.ids.map((id, i) => [id, i]));
    rows = rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  }
  return pageOf(db, query, rows, total, { keyset, offset, shared: cache?.shared });
}

/**
 * A whole app's first page, read by the app's key beside the app itself before its id was known
 * (PostgreSQL, see {@link readKeyedFirstPage}): the statement that reads the first page of the app
 * the key names, with each row's count, latest comments and public tags, so that a page of an app
 * not in the cache waits for one round trip instead of three. Used when the listing asks exactly
 * that page of that app (the caller sees every board); otherwise the listing reads its own.
 */
export interface KeyedFirstPage {
  sort: "newest" | "top";
  limit: number;
  rows: KeyedPageRow[];
}

/** Reads the first page of `limit` requests in `sort` order of the app behind `appKey` (see {@link KeyedFirstPage}). */
export async function readKeyedFirstPage(db: Kysely<Database>, appKey: string, sort: "newest" | "top", limit: number): Promise<KeyedFirstPage> {
  return { sort, limit, rows: await firstPageRowsByAppKey(db, appKey, sort, limit) };
}

/** The page of a {@link KeyedFirstPage}'s rows; its count kept in the cache as the listing's own reads keep it. */
async function keyedPage(query: ListQuery, rows: KeyedPageRow[], cache: { shared: SharedCache; tags: string[] } | undefined): Promise<ListPage> {
  const total = Number(rows[0]?.listedTotal ?? 0);
  if (cache !== undefined) await keepCount(query, cache, total);
  const tags = new Map(rows.slice(0, query.limit).map((r) => [r.id, (r.publicTags ?? []).map(([name, slug, color]) => ({ name, slug, color }))]));
  return itemsPage(query, rows, total, { keyset: true, offset: 0 }, tags);
}

type PageRows = Array<ItemRow & { requesterEndUserId: string | null; hasVoted: unknown }>;
type Paging = { keyset: boolean; offset: number };

/** The page of `rows` (one more than the limit when more follow), with its public tags read (kept in `shared` when given). */
async function pageOf(db: Kysely<Database>, query: ListQuery, rows: PageRows, total: number | string, how: Paging & { shared: SharedCache | undefined }): Promise<ListPage> {
  const tags = await publicTagsOf(db, query.appId, rows.slice(0, query.limit).map((r) => r.id), how.shared);
  return itemsPage(query, rows, total, how, tags);
}

/** The page of `rows` (one more than the limit when more follow) and their public tags: its items and the cursor after it. */
function itemsPage(query: ListQuery, rows: PageRows, total: number | string, how: Paging, tags: Map<string, Array<Pick<TagRow, "name" | "slug" | "color">>>): ListPage {
  const viewer = query.viewerEndUserId;
  const hasMore = rows.length > query.limit;
  const pageRows = rows.slice(0, query.limit);
  const last = pageRows.at(-1);
  const nextCursor = hasMore && last !== undefined ? cursorAfter(query, how.keyset, last, how.offset + query.limit) : null;
  const requests = pageRows.map((r): FeatureRequestItem => {
    const personal = { hasVoted: Number(r.hasVoted) > 0, isOwnRequest: viewer !== null && r.requesterEndUserId === viewer };
    return toItem(r, personal, (tags.get(r.id) ?? []).map(toPublicTag));
  });
  return { requests, total: Number(total), hasMore, nextCursor };
}
