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
 * terms of each lookup, all lookups in one statement, each stopping at its limit. So the rows
 * read are bounded by the lookups' limits whatever the size of the board: on SQLite each lookup
 * walks the FTS5 postings of its title words (the prefix indexes of migration 0007), newest
 * indexed first, until it has its rows; on PostgreSQL it reads the GIN lookup of the public
 * search (migration 0024) until that many rows hold the words in their title. Terms hold letters
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
  const arms = asked.map((lookup) => (dialect === "sqlite" ? onSqlite(scope, lookup) : onPostgres(scope, lookup)));
  const { rows } = await sql<TitleMatch>`${sql.join(arms, sql` union all `)}`.execute(db);
  const found = new Map<string, TitleMatch>();
  for (const row of rows) if (!found.has(row.id)) found.set(row.id, { ...row, voteCount: Number(row.voteCount) });
  return [...found.values()];
}

function onBoards(boardIds: readonly string[] | undefined): RawBuilder<unknown> {
  return boardIds === undefined ? sql`` : sql` and fr.board_id in (${sql.join([...boardIds])})`;
}

function onSqlite(scope: { appId: string; boardIds?: readonly string[] | undefined }, lookup: TitleLookup): RawBuilder<TitleMatch> {
  // Title words only, under the app's public prefix (see indexPrefix), so neither another app's
  // requests nor hidden ones are read. Each arm is a subquery: a compound select takes one
  // LIMIT only, and each lookup needs its own.
  const prefix = appPrefixes(scope.appId).visible;
  const match = lookup.terms.map((term) => `title : "${prefix}${term}"*`).join(" AND ");
  return sql<TitleMatch>`select * from (select fr.id, fr.title, fr.vote_count, fr.created_at
    from feature_requests_fts f join feature_requests fr on fr.id = f.feature_request_id
    where feature_requests_fts match ${match} and fr.moderation = 'approved' and fr.merged_into_id is null${onBoards(scope.boardIds)}
    order by f.rowid desc limit ${lookup.limit})`;
}

function onPostgres(scope: { appId: string; boardIds?: readonly string[] | undefined }, lookup: TitleLookup): RawBuilder<TitleMatch> {
  // The index holds the prefixes of every word of the title, description and names of every
  // app's public requests: the app and the title are checked on the rows it finds, and the
  // lookup stops as soon as enough rows pass. No order: ordering the matches would read them all.
  const inTitle = sql.join(
    lookup.terms.map((term) => sql`(' ' || fr.search_title) like ${`% ${term}%`}`),
    sql` and `,
  );
  return sql<TitleMatch>`(select fr.id, fr.title, fr.vote_count, fr.created_at
    from feature_request_search s join feature_requests fr on fr.id = s.feature_request_id
    where s.prefixes @> ${sql.val([...new Set(lookup.terms)])}::text[] and fr.app_id = ${scope.appId}
      and fr.moderation = 'approved' and fr.merged_into_id is null${onBoards(scope.boardIds)} and ${inTitle}
    limit ${lookup.limit})`;
}
