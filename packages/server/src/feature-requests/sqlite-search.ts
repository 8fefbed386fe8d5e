import { sql, type Kysely, type SqlBool } from "kysely";
import type { Database } from "../db/schema.js";
import { approvedTopBy } from "./listed.js";
import type { ListQuery } from "./list-query.js";
import { approvedInTopOrder, copiesVotesThenNewest, votesThenNewest } from "./list-order.js";
import { appPrefixes } from "../search/search-text.js";

/** The column {@link searchJoin} ranks by: lower is more relevant. */
export const RANK_ALIAS = "rank";

/** The search part of a public search on SQLite: which public rows match and how well. */
export function searchJoin(db: Kysely<Database>, appId: string, terms: string[]) {
  // FTS5: each term as a quoted prefix under the app's public prefix, so hidden requests
  // (everyone's pending and declined ones) are never read; implicit AND. bm25 weights: title 10,
  // body 1, names 2.
  const match = terms.map((t) => `"${appPrefixes(appId).visible}${t}"*`).join(" AND ");
  return db
    .selectFrom("featureRequestsFts")
    .select(["featureRequestId", sql<number>`bm25(feature_requests_fts, 0.0, 10.0, 1.0, 2.0)`.as(RANK_ALIAS)])
    .where(sql<SqlBool>`feature_requests_fts match ${match}`);
}

/**
 * Up to this many matches, a search reads them all (with their titles and vote counts) in one
 * query and orders them in memory. Past it, each tier is ordered and paged in SQL.
 */
const SMALL_RESULT = 200;

/** How many of the most voted listed requests a large search's page is first looked for among. */
const WALKED_ROWS = 2000;

/**
 * Up to this many matches, a tier of a large search is gathered from the index: its matches are
 * read by primary key (2–3 µs each on 100k requests) and ordered, so the tier costs what it
 * holds. Past it, the tier is walked in the `top` index's order, where a common word fills a page
 * within a few rows.
 */
const GATHERED_TIER = 2000;

interface RankedMatch {
  id: string;
  title: string;
  voteCount: number;
  createdAt: string;
}

/** {@link votesThenNewest} in memory, for the matches of a small search. */
function byVotesThenNewest(a: RankedMatch, b: RankedMatch): number {
  return b.voteCount - a.voteCount || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * A public search on SQLite found by the FTS5 index. Words are indexed under a prefix naming the
 * app and public visibility, so each term is one prefix lookup (served by the prefix indexes of
 * migration 0007 for words of up to eight letters). Relevance is tiered: requests whose title
 * holds every term first, then the others; within a tier, most votes first, then newest, as
 * PostgreSQL orders them (`rankOnPostgres`). Small result sets (the usual case for a typed
 * query) are read whole, with their titles and votes, in one query; large ones are counted tier
 * by tier, and each tier's page is read from its matches when it holds few (see GATHERED_TIER),
 * else in the `top` index's order.
 */
export async function rankOnSqlite(
  db: Kysely<Database>,
  query: Pick<ListQuery, "appId">,
  terms: string[],
  page: { offset: number; limit: number },
  smallResult = SMALL_RESULT,
  gatheredTier = GATHERED_TIER,
): Promise<{ ids: string[]; total: number }> {
  const prefix = appPrefixes(query.appId).visible;
  const anywhere = terms.map((t) => `"${prefix}${t}"*`).join(" AND ");
  const inTitle = terms.map((t) => `title : "${prefix}${t}"*`).join(" AND ");
  const count = async (match: string) =>
    Number((await sql<{ n: number }>`select count(*) as n from feature_requests_fts where feature_requests_fts match ${match}`.execute(db)).rows[0]?.n ?? 0);
  const end = page.offset + Math.max(0, page.limit);

  // Counted first, from the index alone: a large result's first matches are not read for nothing.
  const total = await count(anywhere);
  if (total <= smallResult) {
    // Votes and creation time from the narrow copy of the `top` order, as a gathered tier reads them.
    const { rows: matches } = await sql<RankedMatch>`select ft.id, feature_requests_fts.title, ft.vote_count, ft.created_at
      from feature_requests_fts cross join feature_request_top ft on ft.id = feature_requests_fts.feature_request_id
      where feature_requests_fts match ${anywhere}`.execute(db);
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

  const tiers = [inTitle, `${anywhere} NOT (${inTitle})`];
  // Each tier's size decides how its page is read; counting a tier reads only the index.
  const titled = await count(inTitle);
  const sizes = [titled, total - titled];
  // A small tier is gathered (see GATHERED_TIER). A large one's page is first looked for among
  // the app's most voted listed requests, walked in the `top` order's index (migration 0046) and
  // checked against their search text as ownMatches does: a common word fills a page within a
  // few dozen rows. When the walk does not fill it (deep pages, matches among old requests), the
  // listed requests are walked further in that order, each checked against the tier's matches.
  // Given the matches as a subquery alone, SQLite took that walk for every tier, small or empty:
  // the whole board (30–40 ms on 100k requests) to find a few hundred matches or none.
  const text = {
    anywhere: sql`' ' || ${sql.ref("fr.searchTitle")} || ' ' || ${sql.ref("fr.searchBody")} || ' ' || ${sql.ref("fr.searchExtra")}`,
    inTitle: sql`' ' || ${sql.ref("fr.searchTitle")}`,
  };
  const all = (of: keyof typeof text) => sql.join(terms.map((t) => sql`${text[of]} like ${`% ${t}%`}`), sql` and `);
  const holds = [sql<SqlBool>`${all("inTitle")}`, sql<SqlBool>`${all("anywhere")} and not (${all("inTitle")})`];
  const app = { appId: query.appId, boardIds: undefined, versionId: undefined };
  const ids = async (tier: 0 | 1, limit: number, offset: number): Promise<string[]> => {
    if (limit <= 0 || offset >= sizes[tier]!) return [];
    if (sizes[tier]! <= gatheredTier) {
      // CROSS JOIN keeps the index's matches as the outer loop: SQLite does not reorder it. Each
      // match is looked up in the narrow copy of the `top` order (migration 0046), which holds
      // what the tier is filtered and ordered by, rather than in the request's wide row.
      const gathered = await db
        .selectFrom("featureRequestsFts")
        .crossJoin("featureRequestTop as ft")
        .whereRef("ft.id", "=", "featureRequestsFts.featureRequestId")
        .where(sql<SqlBool>`feature_requests_fts match ${tiers[tier]!}`)
        .where(approvedTopBy(app))
        .select("ft.id")
        .$call(copiesVotesThenNewest)
        .limit(limit)
        .offset(offset)
        .execute();
      return gathered.map((r) => r.id);
    }
    const walked = await db
      .selectFrom("featureRequests as fr")
      .where("fr.id", "in", approvedInTopOrder(db, app).select("ft.id").limit(WALKED_ROWS))
      .where(holds[tier]!)
      .select("fr.id")
      .$call(votesThenNewest)
      .limit(limit)
      .offset(offset)
      .execute();
    if (walked.length === limit) return walked.map((r) => r.id);
    const rows = await approvedInTopOrder(db, app)
      .where(sql<SqlBool>`${sql.ref("ft.id")} in (select feature_request_id from feature_requests_fts where feature_requests_fts match ${tiers[tier]!})`)
      .select("ft.id")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => r.id);
  };
  const fromFirst = await ids(0, page.limit, page.offset);
  if (fromFirst.length === page.limit) return { ids: fromFirst, total };
  // The page runs past the title tier: where that tier ends decides the offset in the other.
  const first = fromFirst.length > 0 || page.offset === 0 ? page.offset + fromFirst.length : titled;
  const fromSecond = await ids(1, page.limit - fromFirst.length, Math.max(0, page.offset - first));
  return { ids: [...fromFirst, ...fromSecond], total };
}
