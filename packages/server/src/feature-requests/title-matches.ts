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
 * terms of each lookup, each lookup stopping at its limit, all of them in one statement. So what
 * is read is bounded whatever the size of the board: on SQLite each lookup walks the FTS5
 * postings of its title words (the prefix indexes of migration 0007), newest indexed first, until
 * it has its rows, and one of several words that are all common reads a bounded number of one
 * word's postings instead (see {@link WALKED_POSTINGS}); on PostgreSQL each reads a bounded
 * number of entries of one word in the app's title words table (migration 0041, see onPostgres).
 * Terms hold letters and digits only (see searchText), at most six of them (see STEM_LETTERS), so
 * they need no quoting and each is a prefix of one key of either index. A request found by
 * several lookups comes once.
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
    rows = (await onPostgres(scope, asked).execute(db)).rows;
  }
  const found = new Map<string, TitleMatch>();
  for (const row of rows) if (!found.has(row.id)) found.set(row.id, { ...row, voteCount: Number(row.voteCount) });
  return [...found.values()];
}

function onBoards(boardIds: readonly string[] | undefined): RawBuilder<unknown> {
  return boardIds === undefined ? sql`` : sql` and fr.board_id in (${sql.join([...boardIds])})`;
}

/**
 * How many title postings of one word a lookup reads at most on PostgreSQL (see onPostgres), and
 * how many of a word's newest a SQLite lookup of several words reads when every one of its words
 * is common. FTS5 finds the requests holding several words by stepping through
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

/**
 * The lookups on PostgreSQL, in one statement, through the title words table (migration 0041):
 * a btree keyed by app and word whose entries carry every word of their title. A lookup reads at
 * most {@link WALKED_POSTINGS} entries of one of its terms, its driver, and keeps the titles
 * holding its other terms too, so its cost stays the same on any board. The driver of a lookup of
 * several terms is the one held by the fewest titles (counted up to that bound, once per term for
 * all lookups): when one of its terms is held by fewer, the lookup reads all its holders and is
 * exact, as the GIN index of migration 0039 was, without gathering every posting of the others.
 * When every term is common, it finds those of the driver's first entries that hold the others,
 * as SQLite's bounded lookups do. A term matches the words starting with it: the entries between
 * it and it followed by the last code point, in the column's byte order ("C").
 */
function onPostgres(scope: { appId: string; boardIds?: readonly string[] | undefined }, lookups: readonly TitleLookup[]): RawBuilder<TitleMatch> {
  const listed = sql`fr.moderation = 'approved' and fr.merged_into_id is null${onBoards(scope.boardIds)}`;
  const upTo = (term: string) => `${term}\u{10FFFF}`;
  // Newest first (ids grow with time), as on SQLite; the count reads them in either order.
  const holders = (lo: RawBuilder<unknown>, hi: RawBuilder<unknown>) =>
    sql`select w.feature_request_id, w.words from feature_request_title_words w
      where w.app_id = ${scope.appId} and w.word >= ${lo} and w.word < ${hi}
      order by w.word desc, w.feature_request_id desc limit ${WALKED_POSTINGS}`;
  const several = [...new Set(lookups.flatMap((l) => (new Set(l.terms).size > 1 ? l.terms : [])))];
  const arms = lookups.map((lookup) => {
    const terms = [...new Set(lookup.terms)];
    if (terms.length === 1) {
      return sql`(select fr.id, fr.title, fr.vote_count, fr.created_at
        from (${holders(sql.val(terms[0]), sql.val(upTo(terms[0]!)))}) h join feature_requests fr on fr.id = h.feature_request_id
        where ${listed} limit ${lookup.limit})`;
    }
    const holdsAll = sql.join(
      terms.map((term) => sql`strpos(h.words, ${` ${term}`}) > 0`),
      sql` and `,
    );
    return sql`(select fr.id, fr.title, fr.vote_count, fr.created_at
      from (select lo, hi from held where lo in (${sql.join(terms)}) order by n, length(lo) desc, lo limit 1) d
      cross join lateral (${holders(sql.ref("d.lo"), sql.ref("d.hi"))}) h
      join feature_requests fr on fr.id = h.feature_request_id
      where ${holdsAll} and ${listed} limit ${lookup.limit})`;
  });
  const union = sql.join(arms, sql` union all `);
  if (several.length === 0) return sql<TitleMatch>`${union}`;
  const terms = sql.join(several.map((term) => sql`(${term}, ${upTo(term)})`));
  // Materialized: every lookup reads the counts, and they are made once.
  return sql<TitleMatch>`with held as materialized (select t.lo, t.hi,
      (select count(*) from (${holders(sql.ref("t.lo"), sql.ref("t.hi"))}) c) as n
    from (values ${terms}) as t (lo, hi))
    ${union}`;
}
