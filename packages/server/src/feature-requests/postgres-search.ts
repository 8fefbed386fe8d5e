import { sql, type Kysely, type RawBuilder, type SqlBool } from "kysely";
import { executeNamed } from "../db/named-statements.js";
import type { Database } from "../db/schema.js";
import { approvedBy } from "./listed.js";
import type { ListQuery } from "./list-query.js";
import { votesThenNewest } from "./list-order.js";
import { recentVoteCounts } from "./trending.js";

/** The longest word prefix indexed on PostgreSQL (migrations 0014, 0024). */
export const INDEXED_PREFIX_LETTERS = 8;

/** The key of an app among its requests' word prefixes in the search table (migration 0051). */
export const appSearchKey = (appId: string) => `@${appId}`;

/**
 * An app holding at least this share of the instance's requests, by PostgreSQL's statistics of
 * `feature_requests.app_id`, is searched without its key: the key's postings are then about as
 * many as the rows, and intersecting them costs more than it saves (on a board of 1M requests
 * alone in its instance, a search of three common words took 10.8 ms with the key, 8.2 without).
 */
export const LARGE_APP_SHARE = 0.1;

/** How many searches the large apps are kept for before the statistics are read again. */
const LARGE_APPS_READS = 1000;

const largeAppsOf = new WeakMap<Kysely<Database>, { apps: Promise<ReadonlySet<string>>; left: number }>();

/**
 * The apps holding at least {@link LARGE_APP_SHARE} of the instance's requests, from the most
 * common values of `feature_requests.app_id` as PostgreSQL last analysed them (autovacuum keeps
 * them current as tables grow; none before the table is first analysed). Read once per
 * {@link LARGE_APPS_READS} searches of a database, so no search waits for the catalogue.
 */
export function largeApps(db: Kysely<Database>): Promise<ReadonlySet<string>> {
  const known = largeAppsOf.get(db);
  if (known !== undefined && known.left > 0) {
    known.left--;
    return known.apps;
  }
  const apps = sql<{ apps: string[] | null; freqs: number[] | null }>`select s.most_common_vals::text::text[] as apps, s.most_common_freqs as freqs
    from pg_stats s where s.schemaname = current_schema() and s.tablename = 'feature_requests' and s.attname = 'app_id'`
    .execute(db)
    .then(
      ({ rows }) => {
        const { apps: values, freqs } = rows[0] ?? { apps: null, freqs: null };
        return new Set((values ?? []).filter((_, i) => (freqs?.[i] ?? 0) >= LARGE_APP_SHARE));
      },
      // Every app searched with its key finds the same matches: a failed read costs time, not
      // answers, and is not kept (the next search reads again).
      () => {
        largeAppsOf.delete(db);
        return new Set<string>();
      },
    );
  largeAppsOf.set(db, { apps, left: LARGE_APPS_READS });
  return apps;
}

/**
 * The GIN keys of a search of `appId`'s public requests for `keys` (each an indexed prefix): with
 * the app's own key (migration 0051), unless the app is one of the {@link largeApps}, so the index
 * gathers only the app's matches instead of the whole instance's.
 */
export async function searchKeys(db: Kysely<Database>, appId: string, keys: readonly string[]): Promise<string[]> {
  const distinct = [...new Set(keys)];
  return (await largeApps(db)).has(appId) ? distinct : [...distinct, appSearchKey(appId)];
}

/**
 * A public search on PostgreSQL: the ids of a page and the number of matches in one query. Each
 * term is looked up whole in the GIN index of `feature_request_search` (migration 0024), which
 * holds every word prefix of up to eight letters of the public requests (approved, not merged)
 * and their app's key (0051, see {@link searchKeys}), so the index intersects exact keys; each
 * match is then read by its request's primary key. A
 * longer term is looked up by its first eight letters and then checked as a prefix of a word of
 * the row's text. Ordered like the SQLite search: requests whose title holds every term first,
 * then (for `trending`) recent votes, then votes, then age.
 */
export async function rankOnPostgres(
  db: Kysely<Database>,
  query: ListQuery,
  terms: string[],
  since: string,
  page: { offset: number; limit: number },
): Promise<{ ids: string[]; total: number }> {
  const keys = await searchKeys(db, query.appId, terms.map((t) => t.slice(0, INDEXED_PREFIX_LETTERS)));
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
  const ranked = votesThenNewest(
    query.sort === "trending"
      ? matches
          .leftJoin(recentVoteCounts(db, since), "rc.featureRequestId", "fr.id")
          .select(["fr.id", sql<number>`count(*) over ()`.as("total")])
          .orderBy(tier)
          // Ties in relevance go to recent votes.
          .orderBy(sql`coalesce(rc.recent, 0)`, "desc")
      : matches.select(["fr.id", sql<number>`count(*) over ()`.as("total")]).orderBy(tier),
  );
  // Named: its text varies only with the number of terms.
  const rows = await executeNamed(db, ranked.limit(page.limit).offset(page.offset));
  // A page past the last match has no rows to carry the count.
  const total =
    rows.length > 0 || page.offset === 0
      ? Number(rows[0]?.total ?? 0)
      : Number((await matches.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  return { ids: rows.map((r) => r.id), total };
}
