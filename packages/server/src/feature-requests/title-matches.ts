import { sql, type Kysely, type RawBuilder } from "kysely";
import type { DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { appPrefixes } from "../search/search-text.js";

/** A public request whose title the index matched, with what ranks it. */
export interface TitleMatch {
  id: string;
  title: string;
  voteCount: number;
  createdAt: string;
}

/** One lookup: requests whose title holds a word starting with each of `terms`, at most `limit` of them. */
export interface TitleLookup {
  terms: readonly string[];
  limit: number;
}

/**
 * Public requests (approved, not merged) of an app whose titles hold words starting with the
 * terms of each lookup, each lookup stopping at its limit, all of them in one statement (on
 * PostgreSQL, one for lookups of one word and one for the others). So what is read is bounded
 * whatever the size of the board: on SQLite each lookup walks the FTS5 postings of its title
 * words (the prefix indexes of migration 0007), newest indexed first, until it has its rows, and
 * one of several words that are all common reads a bounded number of one word's postings instead
 * (see {@link WALKED_POSTINGS}); on PostgreSQL it reads the GIN index of the app's title words
 * (migration 0039), a common word's postings sampled (see {@link GIN_SAMPLE}). Terms hold letters
 * and digits only (see searchText), at most six of them (see STEM_LETTERS), so they need no
 * quoting and each is one key of either index. A request found by several lookups comes once.
 *
 * @example
 * ```ts
 * await titleMatches(db, "sqlite", { appId, boardIds: undefined }, [{ terms: ["dark", "mo"], limit: 50 }]);
 * ```
 */
export async function titleMatches(
  db: Kysely<Database>,
  dialect: DialectName,
  /** `boardIds`: only requests on these boards; absent: every board of the app. */
  scope: { appId: string; boardIds?: readonly string[] | undefined },
  lookups: readonly TitleLookup[],
): Promise<TitleMatch[]> {
  const asked = lookups.filter((l) => l.terms.length > 0 && l.limit > 0);
  if (asked.length === 0 || scope.boardIds?.length === 0) return [];
  let rows: TitleMatch[];
  if (dialect === "sqlite") {
    const drivers = await drivingTerms(db, scope.appId, asked);
    const arms = asked.map((lookup, i) => onSqlite(scope, lookup, drivers[i]));
    rows = (await sql<TitleMatch>`${sql.join(arms, sql` union all `)}`.execute(db)).rows;
  } else {
    const union = (of: readonly TitleLookup[]) => sql<TitleMatch>`${sql.join(of.map((lookup) => onPostgres(scope, lookup)), sql` union all `)}`;
    // On PostgreSQL the lookups of one word are sampled, the others exact (see GIN_SAMPLE).
    const single = asked.filter((l) => new Set(l.terms).size === 1);
    const several = asked.filter((l) => new Set(l.terms).size > 1);
    rows = [];
    if (several.length > 0) rows.push(...(await union(several).execute(db)).rows);
    if (single.length > 0) {
      rows.push(...(await sampled(union(single)).execute(db)).rows);
      // Within a caller's transaction the setting would outlive the statement: its other lookups stay exact.
      if (db.isTransaction) await sql`select set_config('gin_fuzzy_search_limit', '0', true)`.execute(db);
    }
  }
  const found = new Map<string, TitleMatch>();
  for (const row of rows) if (!found.has(row.id)) found.set(row.id, { ...row, voteCount: Number(row.voteCount) });
  return [...found.values()];
}

/**
 * The most postings a GIN lookup of one title word gathers before its rows are read: past it,
 * PostgreSQL keeps a random sample of about this many (`gin_fuzzy_search_limit`). A GIN lookup
 * gathers every posting of its keys before it reads a row, so a common word's lookup would cost
 * as much as the requests holding it (about 1.5 ms for 12,000 on the bench's 100k board), even
 * under a LIMIT of 20; sampled, it costs as much on any board. Any few of the requests holding
 * one word are as good candidates as any others, and a word held by fewer requests than this is
 * never sampled. Lookups of several words stay exact: PostgreSQL would sample each word's
 * postings apart, and their intersection could lose the very request holding them all.
 */
export const GIN_SAMPLE = 1000;

/**
 * `union` with its GIN lookups sampled (see {@link GIN_SAMPLE}), in one statement: the setting is
 * made by an init plan that the one-time filter runs before any lookup, and, local to the
 * statement's own transaction, it ends with the statement.
 */
function sampled(union: RawBuilder<TitleMatch>): RawBuilder<TitleMatch> {
  return sql<TitleMatch>`select * from (${union}) m where (select set_config('gin_fuzzy_search_limit', ${String(GIN_SAMPLE)}, true)) is not null`;
}

function onBoards(boardIds: readonly string[] | undefined): RawBuilder<unknown> {
  return boardIds === undefined ? sql`` : sql` and fr.board_id in (${sql.join([...boardIds])})`;
}

/**
 * How many of a word's newest title postings a SQLite lookup of several words reads when every
 * one of its words is common. FTS5 finds the requests holding several words by stepping through
 * each word's postings in turn, so when every word is common and few requests hold them all, it
 * walked about as many postings as the words have (20 to 30 ms for two words on a board of 1M
 * requests, 0.7 ms on 100k). Then the lookup reads instead the newest this many postings of the
 * word least used of late and checks the others in their titles: a few ms on any board. When
 * one word has fewer postings, its own walk bounds the lookup's, and FTS5 answers it whole.
 */
export const WALKED_POSTINGS = 1000;

/** Title words only, under the app's public prefix (see indexPrefix), so neither another app's requests nor hidden ones are read. */
function ftsMatch(appId: string, terms: readonly string[]): string {
  const prefix = appPrefixes(appId).visible;
  return terms.map((term) => `title : "${prefix}${term}"*`).join(" AND ");
}

/**
 * For each lookup of several words on SQLite, the word to read it by when all of them are common
 * (see {@link WALKED_POSTINGS}): the one whose {@link WALKED_POSTINGS}th newest posting is the
 * oldest, so the postings read reach furthest back. Undefined when one of its words is rarer than
 * that, or it has one word. Each word costs one bounded walk of its postings.
 */
async function drivingTerms(db: Kysely<Database>, appId: string, lookups: readonly TitleLookup[]): Promise<Array<string | undefined>> {
  const nth = new Map<string, number | undefined>();
  const drivers: Array<string | undefined> = [];
  for (const lookup of lookups) {
    const terms = [...new Set(lookup.terms)];
    let driver: { term: string; at: number } | undefined;
    for (const term of terms.length > 1 ? terms : []) {
      if (!nth.has(term)) {
        const { rows } = await sql<{ rowid: number }>`select rowid from feature_requests_fts where feature_requests_fts match ${ftsMatch(appId, [term])}
          order by rowid desc limit 1 offset ${WALKED_POSTINGS}`.execute(db);
        nth.set(term, rows[0]?.rowid);
      }
      const at = nth.get(term);
      if (at === undefined) {
        driver = undefined;
        break;
      }
      if (driver === undefined || at < driver.at) driver = { term, at };
    }
    drivers.push(driver?.term);
  }
  return drivers;
}

function onSqlite(scope: { appId: string; boardIds?: readonly string[] | undefined }, lookup: TitleLookup, driver: string | undefined): RawBuilder<TitleMatch> {
  // Each arm is a subquery: a compound select takes one LIMIT only, and each lookup needs its own.
  const listed = sql`fr.moderation = 'approved' and fr.merged_into_id is null${onBoards(scope.boardIds)}`;
  if (driver === undefined) {
    return sql<TitleMatch>`select * from (select fr.id, fr.title, fr.vote_count, fr.created_at
      from feature_requests_fts f join feature_requests fr on fr.id = f.feature_request_id
      where feature_requests_fts match ${ftsMatch(scope.appId, lookup.terms)} and ${listed}
      order by f.rowid desc limit ${lookup.limit})`;
  }
  // The index's title column holds the prefixed words (see prefixWords).
  const prefix = appPrefixes(scope.appId).visible;
  const others = [...new Set(lookup.terms)].filter((term) => term !== driver);
  const holds = sql.join(
    others.map((term) => sql`(' ' || f.title) like ${`% ${prefix}${term}%`}`),
    sql` and `,
  );
  return sql<TitleMatch>`select * from (select fr.id, fr.title, fr.vote_count, fr.created_at
    from (select feature_request_id, title from feature_requests_fts where feature_requests_fts match ${ftsMatch(scope.appId, [driver])}
      order by rowid desc limit ${WALKED_POSTINGS}) f
    join feature_requests fr on fr.id = f.feature_request_id
    where ${holds} and ${listed}
    limit ${lookup.limit})`;
}

function onPostgres(scope: { appId: string; boardIds?: readonly string[] | undefined }, lookup: TitleLookup): RawBuilder<TitleMatch> {
  // Each key is the app's id and a word prefix of a title (migration 0039), so the GIN index
  // answers exactly the app's public requests whose title holds every term, and the lookup
  // stops as soon as it has read enough of them. No order: ordering the matches would read them all.
  const keys = [...new Set(lookup.terms)].map((term) => `${scope.appId} ${term}`);
  const listed = sql`fr.moderation = 'approved' and fr.merged_into_id is null${onBoards(scope.boardIds)}`;
  if (keys.length === 1) {
    return sql<TitleMatch>`(select fr.id, fr.title, fr.vote_count, fr.created_at
      from feature_request_search s join feature_requests fr on fr.id = s.feature_request_id
      where s.title_keys @> ${sql.val(keys)}::text[] and ${listed}
      limit ${lookup.limit})`;
  }
  // Several words: the index lookup is a materialized CTE, planned apart from the LIMIT. Under
  // the LIMIT the planner, counting the words as if independent, chose for two common words
  // seldom in one title to scan the whole table for its few rows (1-1.5 s on a board of 1M
  // requests) instead of reading both words' postings (under 10 ms). The CTE is still read
  // lazily: the lookup stops at its limit. One word keeps the plain form, whose estimate holds
  // and whose scan under the LIMIT stops early.
  return sql<TitleMatch>`(with m as materialized (select feature_request_id from feature_request_search where title_keys @> ${sql.val(keys)}::text[])
    select fr.id, fr.title, fr.vote_count, fr.created_at
    from m join feature_requests fr on fr.id = m.feature_request_id
    where ${listed}
    limit ${lookup.limit})`;
}
