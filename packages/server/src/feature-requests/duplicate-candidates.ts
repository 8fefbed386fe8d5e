import { sql, type Kysely, type SqlBool } from "kysely";
import type { DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { appPrefixes } from "../search/search-text.js";
import { searchKeys } from "./postgres-search.js";

/** How many of a title's stems are looked up in the index one by one: the longest, rarest ones. */
export const LOOKUP_STEMS = 4;

/** The most requests one index lookup answers. */
export const LOOKUP_LIMIT = 20;

/** A request the index found, before it is scored. */
export interface IndexedCandidate {
  id: string;
  title: string;
  createdAt: string;
}

/** A position in the newest-first order: everything strictly before it (older) qualifies. */
export interface OlderThan {
  createdAt: string;
  id: string;
}

/**
 * Older public requests (approved, not merged) of the app whose title holds words starting with
 * `stems`, found through the search index: one lookup per stem (the {@link LOOKUP_STEMS} longest)
 * and one for all of them together, each answering at most {@link LOOKUP_LIMIT} requests. So a
 * request's candidates are bounded whatever the size of the app: on SQLite each lookup walks the
 * FTS5 postings of its words newest-indexed first and stops at the limit; on PostgreSQL it is the
 * GIN lookup of the public search (migration 0024), then the newest matches.
 *
 * @example
 * ```ts
 * await indexedCandidates(db, "sqlite", { appId, stems: ["dark", "mode"], olderThan: { createdAt, id } });
 * ```
 */
export async function indexedCandidates(
  db: Kysely<Database>,
  dialect: DialectName,
  input: { appId: string; stems: readonly string[]; olderThan: OlderThan },
): Promise<IndexedCandidate[]> {
  const longest = [...input.stems].sort((a, b) => b.length - a.length).slice(0, LOOKUP_STEMS);
  const lookups = longest.map((stem) => [stem]);
  if (longest.length > 1) lookups.push(longest);
  const found = new Map<string, IndexedCandidate>();
  for (const stems of lookups) {
    const rows = dialect === "sqlite" ? await onSqlite(db, input.appId, stems, input.olderThan) : await onPostgres(db, input.appId, stems, input.olderThan);
    for (const row of rows) found.set(row.id, row);
  }
  return [...found.values()];
}

function older(olderThan: OlderThan) {
  return sql<SqlBool>`(fr.created_at < ${olderThan.createdAt} or (fr.created_at = ${olderThan.createdAt} and fr.id < ${olderThan.id}))`;
}

async function onSqlite(db: Kysely<Database>, appId: string, stems: readonly string[], olderThan: OlderThan): Promise<IndexedCandidate[]> {
  // Title words only, under the app's public prefix (see indexPrefix); stems hold letters and
  // digits only, so none needs quoting beyond the phrase quotes.
  const prefix = appPrefixes(appId).visible;
  const match = stems.map((stem) => `title : "${prefix}${stem}"*`).join(" AND ");
  const { rows } = await sql<IndexedCandidate>`select fr.id, fr.title, fr.created_at
    from feature_requests_fts f join feature_requests fr on fr.id = f.feature_request_id
    where feature_requests_fts match ${match} and fr.moderation = 'approved' and fr.merged_into_id is null and ${older(olderThan)}
    order by f.rowid desc limit ${LOOKUP_LIMIT}`.execute(db);
  return rows;
}

async function onPostgres(db: Kysely<Database>, appId: string, stems: readonly string[], olderThan: OlderThan): Promise<IndexedCandidate[]> {
  // Stems are at most STEM_LETTERS long, within the eight letters the index keys words by, so
  // each is one exact key, with the app's unless it is large; the title check keeps words of the body out.
  const title = sql<string>`' ' || fr.search_title`;
  const inTitle = sql.join(
    stems.map((stem) => sql`${title} like ${`% ${stem}%`}`),
    sql` and `,
  );
  const keys = await searchKeys(db, appId, stems);
  const matching = sql<string[]>`array(select s.feature_request_id from feature_request_search s where s.prefixes @> ${sql.val(keys)}::text[])`;
  const { rows } = await sql<IndexedCandidate>`select fr.id, fr.title, fr.created_at
    from feature_requests fr
    where fr.id = any(${matching}) and fr.app_id = ${appId} and fr.moderation = 'approved' and fr.merged_into_id is null
      and ${inTitle} and ${older(olderThan)}
    order by fr.created_at desc, fr.id desc limit ${LOOKUP_LIMIT}`.execute(db);
  return rows;
}
