import type { FeatureRequestItem, FeatureRequestSort } from "@tidings/protocol";
import { sql, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from "kysely";
import type { SharedCache } from "../cache/shared-cache.js";
import type { Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import { executeNamed } from "../db/named-statements.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ITEM_COLUMNS, ITEM_JOINED_COLUMNS, idIn, recentCommenters, toItem } from "./items.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import { appPrefixes, searchTerms } from "../search/search-text.js";
import { findEndUser, tokenHash } from "../users/identity.js";

/** How far back `trending` counts votes. */
export const TRENDING_WINDOW_DAYS = 7;
/** Offsets past this are clamped (deep paging is what cursors are for). */
export const MAX_OFFSET = 10_000;

export interface ListQuery {
  appId: string;
  /** The viewer's end-user id: personalises `hasVoted`/`isOwnRequest` and shows their pending requests. */
  viewerEndUserId: string | null;
  limit: number;
  offset: number;
  cursor: string | undefined;
  versionId: string | undefined;
  q: string | undefined;
  sort: FeatureRequestSort;
}

export interface ListPage {
  requests: FeatureRequestItem[];
  total: number;
  hasMore: boolean;
  nextCursor: string | null;
}

type Cursor =
  | { s: "newest"; c: string; i: string }
  | { s: "top"; v: number; c: string; i: string }
  | { s: "offset"; o: number; k: string };

const RANK_ALIAS = "rank";


/**
 * Votes cast since `since`, counted per request as `rc.recent`: counted once from the votes' time
 * index, where counting each match's own votes would read every vote of every match.
 */
function recentVoteCounts(db: Kysely<Database>, since: string) {
  return db
    .selectFrom("featureRequestVotes")
    .select(["featureRequestId", (eb) => eb.fn.countAll<number>().as("recent")])
    .where("createdAt", ">=", since)
    .groupBy("featureRequestId")
    .as("rc");
}

/** The search part of a public search on SQLite: which public rows match and how well. */
function searchJoin(db: Kysely<Database>, appId: string, terms: string[]) {
  // FTS5: each term as a quoted prefix under the app's public prefix, so hidden requests
  // (everyone's pending and declined ones) are never read; implicit AND. bm25 weights: title 10,
  // body 1, names 2.
  const match = terms.map((t) => `"${appPrefixes(appId).visible}${t}"*`).join(" AND ");
  return db
    .selectFrom("featureRequestsFts")
    .select(["featureRequestId", sql<number>`bm25(feature_requests_fts, 0.0, 10.0, 1.0, 2.0)`.as(RANK_ALIAS)])
    .where(sql<SqlBool>`feature_requests_fts match ${match}`);
}

/** The longest word prefix indexed on PostgreSQL (migrations 0014, 0024). */
export const INDEXED_PREFIX_LETTERS = 8;

/**
 * A public search on PostgreSQL: the ids of a page and the number of matches in one query. Each
 * term is looked up whole in the GIN index of `feature_request_search` (migration 0024), which
 * holds every word prefix of up to eight letters of the public requests (approved, not merged),
 * so the index intersects exact keys; each match is then read by its request's primary key. A
 * longer term is looked up by its first eight letters and then checked as a prefix of a word of
 * the row's text. Ordered like the SQLite search: requests whose title holds every term first,
 * then (for `trending`) recent votes, then votes, then age.
 */
async function rankOnPostgres(db: Kysely<Database>, query: ListQuery, terms: string[], since: string, page: { offset: number; limit: number }): Promise<{ ids: string[]; total: number }> {
  const keys = [...new Set(terms.map((t) => t.slice(0, INDEXED_PREFIX_LETTERS)))];
  // Terms hold letters and digits only (see searchTerms), so none is a LIKE wildcard.
  const wordStarts = (text: RawBuilder<string>, list: string[]) => sql.join(list.map((t) => sql`${text} like ${`% ${t}%`}`), sql` and `);
  const everywhere = sql<string>`' ' || ${sql.ref("fr.searchTitle")} || ' ' || ${sql.ref("fr.searchBody")} || ' ' || ${sql.ref("fr.searchExtra")}`;
  const longer = terms.filter((t) => t.length > INDEXED_PREFIX_LETTERS);
  // The matching ids as an array (an init plan), so each request is then read by its primary
  // key: as a join, a broad term had the planner scan every request of the table to hash them.
  const matching = sql<string[]>`array(select s.feature_request_id from feature_request_search s where s.prefixes @> ${sql.val(keys)}::text[])`;
  let matches = db
    .selectFrom("featureRequests as fr")
    .where(approvedBy(query))
    .where(sql<SqlBool>`fr.id = any(${matching})`);
  if (longer.length > 0) matches = matches.where(sql<SqlBool>`${wordStarts(everywhere, longer)}`);
  const tier = sql<number>`case when ${wordStarts(sql<string>`' ' || ${sql.ref("fr.searchTitle")}`, terms)} then 0 else 1 end`;
  const ranked = (
    query.sort === "trending"
      ? matches
          .leftJoin(recentVoteCounts(db, since), "rc.featureRequestId", "fr.id")
          .select(["fr.id", sql<number>`count(*) over ()`.as("total")])
          .orderBy(tier)
          // Ties in relevance go to recent votes.
          .orderBy(sql`coalesce(rc.recent, 0)`, "desc")
      : matches.select(["fr.id", sql<number>`count(*) over ()`.as("total")]).orderBy(tier)
  )
    .orderBy("fr.voteCount", "desc")
    .orderBy("fr.createdAt", "desc")
    .orderBy("fr.id", "desc");
  // Named: its text varies only with the number of terms.
  const rows = await executeNamed(db, ranked.limit(page.limit).offset(page.offset));
  // A page past the last match has no rows to carry the count.
  const total =
    rows.length > 0 || page.offset === 0
      ? Number(rows[0]?.total ?? 0)
      : Number((await matches.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  return { ids: rows.map((r) => r.id), total };
}

/**
 * Up to this many matches, a search reads them all (with their titles and vote counts) in one
 * query and orders them in memory. Past it, each tier is ordered and paged in SQL.
 */
const SMALL_RESULT = 200;

/** How many of the most voted listed requests a large search's page is first looked for among. */
const WALKED_ROWS = 2000;

/** The order within a tier of equally relevant matches, on both engines: votes, then newest. */
function byVotesThenNewest(a: RankedMatch, b: RankedMatch): number {
  return b.voteCount - a.voteCount || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

interface RankedMatch {
  id: string;
  title: string;
  voteCount: number;
  createdAt: string;
}

/**
 * A public search on SQLite found by the FTS5 index. Words are indexed under a prefix naming the
 * app and public visibility, so each term is one prefix lookup (served by the prefix indexes of
 * migration 0007 for words of up to eight letters). Relevance is tiered: requests whose title
 * holds every term first, then the others; within a tier, most votes first, then newest, as
 * PostgreSQL orders them ({@link rankOnPostgres}). Small result sets (the usual case for a typed
 * query) are read whole, with their titles and votes, in one query; large ones are counted and
 * each tier's page is read in the `top` index's order.
 */
export async function rankOnSqlite(
  db: Kysely<Database>,
  query: Pick<ListQuery, "appId">,
  terms: string[],
  page: { offset: number; limit: number },
  smallResult = SMALL_RESULT,
): Promise<{ ids: string[]; total: number }> {
  const prefix = appPrefixes(query.appId).visible;
  const anywhere = terms.map((t) => `"${prefix}${t}"*`).join(" AND ");
  const inTitle = terms.map((t) => `title : "${prefix}${t}"*`).join(" AND ");
  const count = async (match: string) =>
    Number((await sql<{ n: number }>`select count(*) as n from feature_requests_fts where feature_requests_fts match ${match}`.execute(db)).rows[0]?.n ?? 0);
  const end = page.offset + Math.max(0, page.limit);

  const { rows: matches } = await sql<RankedMatch>`select fr.id, feature_requests_fts.title, fr.vote_count, fr.created_at
    from feature_requests_fts join feature_requests fr on fr.id = feature_requests_fts.feature_request_id
    where feature_requests_fts match ${anywhere} limit ${smallResult + 1}`.execute(db);
  if (matches.length <= smallResult) {
    // The title column holds the prefixed words, so "every term in the title" is a check on them.
    const prefixed = terms.map((t) => `${prefix}${t}`);
    const titled = (title: string) => {
      const words = title.split(" ");
      return prefixed.every((term) => words.some((word) => word.startsWith(term)));
    };
    const inTitleTier = matches.filter((m) => titled(m.title)).sort(byVotesThenNewest);
    const otherTier = matches.filter((m) => !titled(m.title)).sort(byVotesThenNewest);
    return { ids: [...inTitleTier, ...otherTier].slice(page.offset, end).map((m) => m.id), total: matches.length };
  }

  const total = await count(anywhere);
  const tiers = [inTitle, `${anywhere} NOT (${inTitle})`];
  // A tier's page is first looked for among the app's most voted listed requests, walked in the
  // `top` index's order (migration 0011) and checked against their search text as ownMatches
  // does: a common word fills a page within a few dozen rows. When the walk does not fill it
  // (rare words, deep pages), the tier's matches are gathered from the index and the listed
  // requests among them read in that order; gathering reads each match's stored row (about
  // 20 µs each), so it is the fallback, not the rule.
  const text = {
    anywhere: sql`' ' || ${sql.ref("fr.searchTitle")} || ' ' || ${sql.ref("fr.searchBody")} || ' ' || ${sql.ref("fr.searchExtra")}`,
    inTitle: sql`' ' || ${sql.ref("fr.searchTitle")}`,
  };
  const all = (of: keyof typeof text) => sql.join(terms.map((t) => sql`${text[of]} like ${`% ${t}%`}`), sql` and `);
  const holds = [sql<SqlBool>`${all("inTitle")}`, sql<SqlBool>`${all("anywhere")} and not (${all("inTitle")})`];
  const listed = approvedBy({ appId: query.appId, versionId: undefined });
  const ids = async (tier: 0 | 1, limit: number, offset: number): Promise<string[]> => {
    if (limit <= 0) return [];
    const walked = await db
      .selectFrom((eb) =>
        eb
          .selectFrom("featureRequests as fr")
          .where(listed)
          .select(["fr.id", "fr.voteCount", "fr.createdAt", "fr.searchTitle", "fr.searchBody", "fr.searchExtra"])
          .orderBy("fr.voteCount", "desc")
          .orderBy("fr.createdAt", "desc")
          .orderBy("fr.id", "desc")
          .limit(WALKED_ROWS)
          .as("fr"),
      )
      .where(holds[tier]!)
      .select("fr.id")
      .orderBy("fr.voteCount", "desc")
      .orderBy("fr.createdAt", "desc")
      .orderBy("fr.id", "desc")
      .limit(limit)
      .offset(offset)
      .execute();
    if (walked.length === limit) return walked.map((r) => r.id);
    const rows = await db
      .selectFrom("featureRequests as fr")
      .where(listed)
      .where(sql<SqlBool>`${sql.ref("fr.id")} in (select feature_request_id from feature_requests_fts where feature_requests_fts match ${tiers[tier]!})`)
      .select("fr.id")
      .orderBy("fr.voteCount", "desc")
      .orderBy("fr.createdAt", "desc")
      .orderBy("fr.id", "desc")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => r.id);
  };
  const fromFirst = await ids(0, page.limit, page.offset);
  if (fromFirst.length === page.limit) return { ids: fromFirst, total };
  // The page runs past the title tier: where that tier ends decides the offset in the other.
  const first = fromFirst.length > 0 || page.offset === 0 ? page.offset + fromFirst.length : await count(inTitle);
  const fromSecond = await ids(1, page.limit - fromFirst.length, Math.max(0, page.offset - first));
  return { ids: [...fromFirst, ...fromSecond], total };
}

/** Identifies the filters a cursor was issued for, so it cannot be replayed on another list. */
function listKey(query: ListQuery): string {
  return `${query.sort}|${query.versionId ?? ""}|${searchTerms(query.q ?? "").join(" ")}`;
}

/**
 * The app's public requests: approved and not merged. The states are literals, not parameters, so
 * the planners can use the partial indexes of migration 0011, which hold these rows alone.
 */
function approvedBy(query: Pick<ListQuery, "appId" | "versionId">) {
  return (eb: ExpressionBuilder<Database & { fr: Database["featureRequests"] }, "fr">) =>
    eb.and([
      eb("fr.appId", "=", query.appId),
      eb("fr.moderation", "=", sql.lit("approved")),
      eb("fr.mergedIntoId", "is", null),
      ...(query.versionId === undefined ? [] : [eb("fr.versionId", "=", query.versionId)]),
    ]);
}

/** The viewer's own requests still waiting for review (not merged), likewise literal for the partial indexes. */
function ownPendingBy(query: ListQuery, viewer: string) {
  return (eb: ExpressionBuilder<Database & { fr: Database["featureRequests"] }, "fr">) =>
    eb.and([
      eb("fr.appId", "=", query.appId),
      eb("fr.requesterEndUserId", "=", viewer),
      eb("fr.moderation", "=", sql.lit("pending")),
      eb("fr.mergedIntoId", "is", null),
      ...(query.versionId === undefined ? [] : [eb("fr.versionId", "=", query.versionId)]),
    ]);
}

/** The listing's filter: the app's approved requests plus the viewer's own pending ones, merged duplicates excluded. */
function listedBy(query: ListQuery) {
  const viewer = query.viewerEndUserId;
  return (eb: ExpressionBuilder<Database & { fr: Database["featureRequests"] }, "fr">) =>
    viewer === null ? approvedBy(query)(eb) : eb.or([approvedBy(query)(eb), ownPendingBy(query, viewer)(eb)]);
}

/** Where a request stands in the `newest` or `top` order. */
interface OrderKey {
  id: string;
  voteCount: number;
  createdAt: string;
}

/** A keyset cursor's position, in the order it was issued for. */
type After = { s: "newest"; c: string; i: string } | { s: "top"; v: number; c: string; i: string };

/** Rows strictly after `after` in its order. */
function afterKey(after: After) {
  return (eb: ExpressionBuilder<Database & { fr: Database["featureRequests"] }, "fr">) => {
    const sameVotesOlder = eb.or([eb("fr.createdAt", "<", after.c), eb.and([eb("fr.createdAt", "=", after.c), eb("fr.id", "<", after.i)])]);
    return after.s === "newest" ? sameVotesOlder : eb.or([eb("fr.voteCount", "<", after.v), eb.and([eb("fr.voteCount", "=", after.v), sameVotesOlder])]);
  };
}

/** Negative when `a` comes first in the order (both orders are descending). */
function compareKeys(order: "newest" | "top", a: OrderKey, b: OrderKey): number {
  if (order === "top" && a.voteCount !== b.voteCount) return b.voteCount - a.voteCount;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/**
 * The first `limit` listed requests in `order` after `after`: the approved ones and the viewer's
 * own pending ones, each read in order from its partial index (migration 0011) and merged. Each
 * side reads at most `limit` index entries and rows, however many requests the viewer has waiting
 * for review: only the slice of them that falls in the page is read.
 */
async function listedInOrder(db: Kysely<Database>, query: ListQuery, order: "newest" | "top", after: After | undefined, limit: number): Promise<OrderKey[]> {
  const slice = (filter: ReturnType<typeof approvedBy>) => {
    // Votes only where they order: `newest` is then read from its index alone.
    let q = db
      .selectFrom("featureRequests as fr")
      .where(filter)
      .select(["fr.id", "fr.createdAt", order === "top" ? sql<number>`${sql.ref("fr.voteCount")}`.as("voteCount") : sql<number>`0`.as("voteCount")]);
    if (after !== undefined) q = q.where(afterKey(after));
    if (order === "top") q = q.orderBy("fr.voteCount", "desc");
    return q.orderBy("fr.createdAt", "desc").orderBy("fr.id", "desc").limit(limit).execute();
  };
  const approved = await slice(approvedBy(query));
  const viewer = query.viewerEndUserId;
  if (viewer === null) return approved;
  const own = await slice(ownPendingBy(query, viewer));
  if (own.length === 0) return approved;
  return [...approved, ...own].sort((a, b) => compareKeys(order, a, b)).slice(0, limit);
}

/**
 * The viewer's own pending requests that match a search, read from their own rows (the partial
 * indexes of migration 0011) and never from the app's hidden requests: a word matches as a prefix
 * of a word of the title, description or column and version names, as in the indexes. Those
 * with every word in the title come first, then newest first, alike on both engines.
 */
async function ownMatches(db: Kysely<Database>, query: ListQuery, viewer: string, terms: string[]): Promise<string[]> {
  const anywhere = sql`' ' || ${sql.ref("fr.searchTitle")} || ' ' || ${sql.ref("fr.searchBody")} || ' ' || ${sql.ref("fr.searchExtra")}`;
  const inTitle = sql`' ' || ${sql.ref("fr.searchTitle")}`;
  // Terms hold letters and digits only (see searchTerms), so none is a LIKE wildcard; the text is
  // lower-cased on both sides.
  const all = (text: typeof anywhere) => sql.join(terms.map((t) => sql`${text} like ${`% ${t}%`}`), sql` and `);
  const rows = await db
    .selectFrom("featureRequests as fr")
    .where(ownPendingBy(query, viewer))
    .where(sql<SqlBool>`${all(anywhere)}`)
    .select(["fr.id", sql<number>`case when ${all(inTitle)} then 0 else 1 end`.as("tier")])
    .orderBy("tier", "asc")
    .orderBy("fr.createdAt", "desc")
    .orderBy("fr.id", "desc")
    .execute();
  return rows.map((r) => r.id);
}

/**
 * A search by a viewer with pending requests of their own: their matching pending requests first
 * (see {@link ownMatches}), then the public search's results in its order. The public part is the
 * anonymous search itself, so its cost, like its order, does not depend on anyone's pending
 * requests; the viewer's part grows with their own only.
 */
async function searchWithOwn(
  db: Kysely<Database>,
  dialect: DialectName,
  clock: Clock,
  query: ListQuery,
  viewer: string,
  terms: string[],
  offset: number,
  cache: { shared: SharedCache; tags: string[] } | undefined,
): Promise<{ ids: string[]; total: number }> {
  const own = await ownMatches(db, query, viewer, terms);
  const fromOwn = own.slice(offset, offset + query.limit + 1);
  const wanted = query.limit + 1 - fromOwn.length;
  const anonymous = await listFeatureRequests(
    db,
    dialect,
    clock,
    { ...query, viewerEndUserId: null, cursor: undefined, offset: Math.max(0, offset - own.length), limit: Math.max(1, wanted) },
    cache,
  );
  return { ids: [...fromOwn, ...anonymous.requests.slice(0, wanted).map((r) => r.id)], total: own.length + anonymous.total };
}

/** How long an app's `trending` ranking is reused; see docs/public-api.md. */
export const TRENDING_RANKING_MS = 5_000;

/**
 * The app's public requests voted on since `since`, most recent votes first, then `top` order.
 * Found from the votes (by their time index, joined to their requests: `cross join` keeps SQLite
 * from starting at the app's requests instead). Reading them costs one index entry per recent
 * vote, so with a cache the ranking is computed at most once per {@link TRENDING_RANKING_MS} per
 * app and version filter, and shared by every viewer; votes do not drop it (they would recompute
 * it after every vote), changes to which requests are listed do (the cache's tags).
 */
async function trendingRanking(db: Kysely<Database>, query: ListQuery, since: string, cache: { shared: SharedCache; tags: string[] } | undefined): Promise<string[]> {
  const compute = async () =>
    (
      await db
        .selectFrom("featureRequestVotes as rv")
        .crossJoin("featureRequests as fr")
        .whereRef("fr.id", "=", "rv.featureRequestId")
        .where("rv.createdAt", ">=", since)
        .where(approvedBy(query))
        .select(["fr.id", (eb) => eb.fn.countAll<number>().as("recent")])
        .groupBy(["fr.id", "fr.voteCount", "fr.createdAt"])
        .orderBy("recent", "desc")
        .orderBy("fr.voteCount", "desc")
        .orderBy("fr.createdAt", "desc")
        .orderBy("fr.id", "desc")
        .execute()
    ).map((r) => r.id);
  if (cache === undefined) return compute();
  const key = `fr-trending:${query.appId}:${query.versionId ?? ""}`;
  const hit = await cache.shared.get<string[]>(key);
  if (hit !== undefined) return hit;
  const ids = await compute();
  await cache.shared.set(key, ids, { ttlMs: TRENDING_RANKING_MS, tags: cache.tags });
  return ids;
}

/**
 * The ids of a `trending` page: the app's public requests voted on recently first (see
 * {@link trendingRanking}), then `top` order, the viewer's own pending requests included there.
 * Ordering every request by a count of its recent votes took 200-300 ms on 100k requests.
 */
async function trendingIds(
  db: Kysely<Database>,
  query: ListQuery,
  since: string,
  page: { offset: number; limit: number },
  cache: { shared: SharedCache; tags: string[] } | undefined,
): Promise<string[]> {
  const hot = await trendingRanking(db, query, since, cache);
  const fromHot = hot.slice(page.offset, page.offset + page.limit);
  if (fromHot.length === page.limit) return fromHot;
  // The others in `top` order: every request found above is listed, so it appears once in that
  // order, and reading that many rows more than the page needs leaves enough once they are skipped.
  const restOffset = Math.max(0, page.offset - hot.length);
  const restLimit = page.limit - fromHot.length;
  const hotIds = new Set(hot);
  const top = await listedInOrder(db, query, "top", undefined, restOffset + restLimit + hot.length);
  const rest = top.filter((r) => !hotIds.has(r.id)).slice(restOffset, restOffset + restLimit);
  return [...fromHot, ...rest.map((r) => r.id)];
}

/**
 * One page of an app's feature requests: approved ones plus the viewer's own pending ones,
 * merged duplicates excluded. Searches rank by relevance (then votes, then age); `newest` and
 * `top` page by keyset cursors, `trending` and searches by offset cursors.
 */
export async function listFeatureRequests(
  db: Kysely<Database>,
  dialect: DialectName,
  clock: Clock,
  query: ListQuery,
  cache?: { shared: SharedCache; tags: string[] },
): Promise<ListPage> {
  const terms = query.q === undefined ? [] : searchTerms(query.q);
  const searching = query.q !== undefined && query.q.trim() !== "";
  if (searching && terms.length === 0) return { requests: [], total: 0, hasMore: false, nextCursor: null };

  const viewer = query.viewerEndUserId;
  const base = db.selectFrom("featureRequests as fr").where(listedBy(query));
  const key = listKey(query);
  const keyset = !searching && query.sort !== "trending";
  let offset = Math.min(query.offset, MAX_OFFSET);
  const since = new Date(clock.now().getTime() - TRENDING_WINDOW_DAYS * 86_400_000).toISOString();

  // `newest` and `top` page by keyset cursors (a position in their order), the others by offsets.
  let after: After | undefined;
  if (query.cursor !== undefined) {
    if (keyset && query.sort === "newest") {
      const c = decodeCursor<{ s: string; c: string; i: string; k: string }>(query.cursor, { s: "string", c: "string", i: "string", k: "string" }, { s: "newest", k: key });
      after = { s: "newest", c: c.c, i: c.i };
    } else if (keyset) {
      const c = decodeCursor<{ s: string; v: number; c: string; i: string; k: string }>(
        query.cursor,
        { s: "string", v: "number", c: "string", i: "string", k: "string" },
        { s: "top", k: key },
      );
      after = { s: "top", v: c.v, c: c.c, i: c.i };
    } else {
      offset = decodeCursor<{ s: string; o: number; k: string }>(query.cursor, { s: "string", o: "number", k: "string" }, { s: "offset", k: key }).o;
    }
    if (keyset) offset = 0;
  }

  // Public searches (but SQLite's with a version filter) and `trending` lists are ranked first;
  // the table then only fills in the page. A viewer's searches put their own pending matches
  // before the public search's results. A viewer's `newest` and `top` pages merge their own
  // pending requests into the public order, reading only the page's slice of each.
  const rankSearch = searching && dialect === "sqlite" && viewer === null && query.versionId === undefined;
  const rankTrending = !searching && query.sort === "trending";
  const mergeOwn = keyset && viewer !== null;
  const rankPage = { limit: query.limit + 1, offset };
  const ranked = rankSearch
    ? await rankOnSqlite(db, query, terms, rankPage)
    : searching && viewer === null && dialect === "postgres"
      ? await rankOnPostgres(db, query, terms, since, rankPage)
    : searching && viewer !== null
      ? await searchWithOwn(db, dialect, clock, query, viewer, terms, offset, cache)
      : rankTrending
      ? { ids: await trendingIds(db, query, since, rankPage, cache), total: await countListed(db, query, cache) }
      : mergeOwn
        ? {
            ids: (await listedInOrder(db, query, query.sort === "top" ? "top" : "newest", after, offset + query.limit + 1)).slice(offset).map((r) => r.id),
            total: await countListed(db, query, cache),
          }
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
        : await countListed(db, query, cache);

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
    if (query.sort === "top" || query.sort === "trending" || searching) page = page.orderBy("fr.voteCount", "desc");
    page = page.orderBy("fr.createdAt", "desc").orderBy("fr.id", "desc");
  }

  if (after !== undefined && ranked === null) page = page.where(afterKey(after));
  if (offset > 0 && ranked === null) page = page.offset(offset);

  // A ranked page's ids are known already: on PostgreSQL its recent commenters are read beside
  // its rows, on another pooled connection, instead of one round trip later.
  const early = ranked !== null && dialect === "postgres" ? recentCommenters(db, ranked.ids.slice(0, query.limit)) : undefined;
  early?.catch(() => undefined);
  let rows = await executeNamed(db, page);
  if (ranked !== null) {
    const position = new Map(ranked.ids.map((id, i) => [id, i]));
    rows = rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  }
  const hasMore = rows.length > query.limit;
  const pageRows = rows.slice(0, query.limit);
  const last = pageRows.at(-1);
  let nextCursor: string | null = null;
  if (hasMore && last !== undefined) {
    const cursor: Cursor & { k: string } = !keyset
      ? { s: "offset", o: offset + query.limit, k: key }
      : query.sort === "top"
        ? { s: "top", v: last.voteCount, c: last.createdAt, i: last.id, k: key }
        : { s: "newest", c: last.createdAt, i: last.id, k: key };
    nextCursor = encodeCursor(cursor);
  }
  const commenters = await (early ?? recentCommenters(db, pageRows.map((r) => r.id)));
  const requests = pageRows.map((r): FeatureRequestItem => {
    const recent = commenters.get(r.id) ?? [];
    return toItem(r, recent, { hasVoted: Number(r.hasVoted) > 0, isOwnRequest: viewer !== null && r.requesterEndUserId === viewer });
  });
  return { requests, total: Number(total), hasMore, nextCursor };
}

/** A signed-in viewer of a shared page: who they are and what the page shows differently for them. */
export interface PageViewer {
  id: string;
  publicId: string;
  /** They have pending requests of their own, which their pages list too: the shared page will not do. */
  ownPending: boolean;
  /** The page's requests they voted on (empty when `ownPending`). */
  voted: Set<string>;
}

/**
 * The viewer behind `token` on a shared page, or undefined for a token never seen (nothing to
 * personalise). On PostgreSQL one statement answers it all, where three (the end user, their
 * pending requests, their votes) cost a round trip each; SQLite, in process, runs them in turn.
 */
export async function pageViewer(db: Kysely<Database>, dialect: DialectName, appId: string, token: string, page: ListPage): Promise<PageViewer | undefined> {
  const ids = page.requests.map((r) => r.id).sort();
  const range = { from: ids[0] ?? "", to: ids.at(-1) ?? "" };
  if (dialect === "postgres") {
    const row = await viewerOnPostgres.first(db, { appId, hash: tokenHash(token), ...range });
    if (row === undefined) return undefined;
    return { id: row.id, publicId: row.publicId, ownPending: row.ownPending, voted: new Set(row.ownPending ? [] : row.voted) };
  }
  const viewer = await findEndUser(db, appId, token);
  if (viewer === undefined) return undefined;
  if ((await ownPending.first(db, { appId, viewerEndUserId: viewer.id })) !== undefined) return { ...viewer, ownPending: true, voted: new Set() };
  const voted = ids.length === 0 ? [] : await votesInRange.rows(db, { endUserId: viewer.id, ...range });
  return { ...viewer, ownPending: false, voted: new Set(voted.map((v) => v.featureRequestId)) };
}

// The state is a literal so that the partial index of the viewer's pending requests serves it.
const ownPending = preparedQuery<{ appId: string; viewerEndUserId: string }, { id: string }>((db, p) =>
  db
    .selectFrom("featureRequests")
    .select("id")
    .where("appId", "=", p.appId)
    .where("requesterEndUserId", "=", p.viewerEndUserId)
    .where("moderation", "=", sql.lit("pending"))
    .where("mergedIntoId", "is", null)
    .limit(1),
);

/**
 * The viewer's votes among requests whose ids fall in a range. Ids sort by creation time, so a
 * page's ids bound a range; a fixed statement (no list of ids) keeps it prepared.
 */
const votesInRange = preparedQuery<{ endUserId: string; from: string; to: string }, { featureRequestId: string }>((db, p) =>
  db
    .selectFrom("featureRequestVotes")
    .select("featureRequestId")
    .where("endUserId", "=", p.endUserId)
    .where("featureRequestId", ">=", p.from)
    .where("featureRequestId", "<=", p.to),
);

/** {@link pageViewer} on PostgreSQL: the three lookups as subqueries of one statement. */
const viewerOnPostgres = preparedQuery<
  { appId: string; hash: string; from: string; to: string },
  { id: string; publicId: string; ownPending: boolean; voted: string[] }
>((db, p) =>
  db
    .selectFrom("endUsers as eu")
    .select([
      "eu.id",
      "eu.publicId",
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom("featureRequests as fr")
              .select("fr.id")
              .where("fr.appId", "=", p.appId)
              .whereRef("fr.requesterEndUserId", "=", "eu.id")
              .where("fr.moderation", "=", sql.lit("pending"))
              .where("fr.mergedIntoId", "is", null),
          )
          .as("ownPending"),
      sql<string[]>`coalesce((select array_agg(v.feature_request_id) from feature_request_votes v
        where v.end_user_id = eu.id and v.feature_request_id >= ${p.from} and v.feature_request_id <= ${p.to}), '{}')`.as("voted"),
    ])
    .where("eu.appId", "=", p.appId)
    .where("eu.tokenHash", "=", p.hash),
);

/** The viewer's version of an anonymous page: `hasVoted` and `isOwnRequest` filled in. Only for viewers without pending requests of their own. */
export function personalisePage(page: ListPage, viewer: PageViewer): ListPage {
  return {
    ...page,
    requests: page.requests.map((r) => ({ ...r, hasVoted: viewer.voted.has(r.id), isOwnRequest: r.requesterClerkId === viewer.publicId })),
  };
}

/** How long the count of an app's approved requests may be reused (writes to the app drop it). */
const COUNT_CACHE_MS = 30_000;

/**
 * The listing's total without a search: approved requests (counted from an index and shared
 * between viewers through the cache, the expensive part on large boards) plus the viewer's own
 * pending ones.
 */
async function countListed(db: Kysely<Database>, query: ListQuery, cache: { shared: SharedCache; tags: string[] } | undefined): Promise<number> {
  const countApproved = async () => {
    let q = db
      .selectFrom("featureRequests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("appId", "=", query.appId)
      .where("moderation", "=", "approved")
      .where("mergedIntoId", "is", null);
    if (query.versionId !== undefined) q = q.where("versionId", "=", query.versionId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  let approved: number;
  if (cache === undefined) {
    approved = await countApproved();
  } else {
    const key = `fr-count:${query.appId}:${query.versionId ?? ""}`;
    const hit = await cache.shared.get<number>(key);
    approved = hit ?? (await countApproved());
    if (hit === undefined) await cache.shared.set(key, approved, { ttlMs: COUNT_CACHE_MS, tags: cache.tags });
  }
  if (query.viewerEndUserId === null) return approved;
  // Counted from the partial index of the viewer's pending requests alone, no row read (a version
  // filter, which that index does not hold, reads their rows).
  const own = await db
    .selectFrom("featureRequests as fr")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(ownPendingBy(query, query.viewerEndUserId))
    .executeTakeFirstOrThrow();
  return approved + Number(own.n);
}
