import { sql, type Kysely, type SqlBool } from "kysely";
import type { Database } from "../db/schema.js";
import { ownPendingBy } from "./listed.js";
import type { ListPage, ListQuery } from "./list-query.js";

/**
 * The viewer's own pending requests that match a search, read from the rows of their window (`own`,
 * their newest: see own-pending.ts) and never from the app's hidden requests: a word matches as a prefix
 * of a word of the title, description or column and version names, as in the indexes. Those
 * with every word in the title come first, then newest first, alike on both engines.
 */
export async function ownMatches(db: Kysely<Database>, query: ListQuery, own: readonly string[], terms: string[]): Promise<string[]> {
  const anywhere = sql`' ' || ${sql.ref("fr.searchTitle")} || ' ' || ${sql.ref("fr.searchBody")} || ' ' || ${sql.ref("fr.searchExtra")}`;
  const inTitle = sql`' ' || ${sql.ref("fr.searchTitle")}`;
  // Terms hold letters and digits only (see searchTerms), so none is a LIKE wildcard; the text is
  // lower-cased on both sides.
  const all = (text: typeof anywhere) => sql.join(terms.map((t) => sql`${text} like ${`% ${t}%`}`), sql` and `);
  const rows = await db
    .selectFrom("featureRequests as fr")
    .where(ownPendingBy(query, own))
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
 * anonymous search itself (`publicSearch`, the listing run for nobody), so its cost, like its
 * order, does not depend on anyone's pending requests; the viewer's part reads their window alone.
 */
export async function searchWithOwn(
  db: Kysely<Database>,
  query: ListQuery,
  own: readonly string[],
  terms: string[],
  offset: number,
  publicSearch: (query: ListQuery) => Promise<ListPage>,
): Promise<{ ids: string[]; total: number }> {
  const matches = own.length === 0 ? [] : await ownMatches(db, query, own, terms);
  const fromOwn = matches.slice(offset, offset + query.limit + 1);
  const wanted = query.limit + 1 - fromOwn.length;
  const anonymous = await publicSearch({ ...query, viewerEndUserId: null, cursor: undefined, offset: Math.max(0, offset - matches.length), limit: Math.max(1, wanted) });
  // A request approved since the window was read may be among the public results too: listed once.
  const mine = new Set(fromOwn);
  const rest = anonymous.requests.slice(0, wanted).filter((r) => !mine.has(r.id));
  return { ids: [...fromOwn, ...rest.map((r) => r.id)], total: matches.length + anonymous.total };
}
