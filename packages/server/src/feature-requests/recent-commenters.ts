import type { FeatureRequestItem } from "@tidings/protocol";
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from "kysely";
import type { SharedCache } from "../cache/shared-cache.js";
import { appTag, requestCommentsTag } from "../context.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";

type Commenter = FeatureRequestItem["recentCommenters"][number];

/**
 * How many of a request's latest comments its recent commenters are read from. Reading all of a
 * request's comments made every page showing it slower with each comment it got; the commenters
 * of a lively thread are now those of its last 20 comments (the same people commenting more than
 * that in a row is the only case where fewer than 4 are named).
 */
export const RECENT_COMMENTS_READ = 20;

export interface LatestComment {
  featureRequestId: string;
  authorName: string | null;
  isTeam: number;
  publicId: string | null;
}

/**
 * Each request's {@link RECENT_COMMENTS_READ} latest visible comments, newest first, each read
 * in order from the thread index (`feature_request_id, created_at, id`), for any number of ids in
 * one statement of fixed text, prepared once (see `preparedQuery`): PostgreSQL through one lateral
 * subquery per id of an array parameter, SQLite through a correlated subquery per id of a JSON
 * array parameter, whose comments are then read by rowid (the thread index holds it: by `id`, each
 * was looked up in the primary key's index first, 15 % of the statement). The SQLite form was one
 * subquery per id joined by `union all`, so its text changed with the page and was built and
 * compiled for every page.
 */
function latestComments(db: Kysely<Database>, ids: string[]): Promise<LatestComment[]> {
  return latestCommentsOf.rows(db, { ids });
}

/**
 * PostgreSQL's subquery of one request's {@link RECENT_COMMENTS_READ} latest visible comments
 * (`requestId`: a column of the outer query), newest first, with their authors' public ids: read
 * here for a page's ids, and inside the statement of a cold app's first page (first-page.ts).
 */
export function latestCommentsOnPostgres(requestId: RawBuilder<unknown>) {
  return sql<LatestComment & { createdAt: string; id: string }>`select cm.feature_request_id, cm.author_name, cm.is_team, eu.public_id, cm.created_at, cm.id
            from feature_request_comments cm left join end_users eu on eu.id = cm.end_user_id
            where cm.feature_request_id = ${requestId} and cm.is_hidden = 0
            order by cm.created_at desc, cm.id desc limit ${sql.lit(RECENT_COMMENTS_READ)}`;
}

// On PostgreSQL the ids are read by a subquery, so that the plan does not follow their number
// and is made once per connection (see page-viewers.ts): read as a value, a page of a few ids
// made a new plan on every execution.
const latestCommentsOf = preparedQuery<{ ids: readonly string[] }, LatestComment>((db, p) => ({
  compile: () =>
    (db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<LatestComment>`select c.feature_request_id, c.author_name, c.is_team, c.public_id
          from unnest((select ${p.ids}::text[])) as ids(id) cross join lateral (${latestCommentsOnPostgres(sql.ref("ids.id"))}) c
          order by c.feature_request_id, c.created_at desc, c.id desc`
      : sql<LatestComment>`select cm.feature_request_id, cm.author_name, cm.is_team, eu.public_id
          from json_each(${p.ids}) as ids
          join feature_request_comments cm on cm.rowid in (select latest.rowid from feature_request_comments latest
            where latest.feature_request_id = ids.value and latest.is_hidden = 0
            order by latest.created_at desc, latest.id desc limit ${sql.lit(RECENT_COMMENTS_READ)})
          left join end_users eu on eu.id = cm.end_user_id
          order by cm.feature_request_id, cm.created_at desc, cm.id desc`
    ).compile(db),
}));

/**
 * How long a request's recent commenters may be reused from the shared cache: as long as an
 * anonymous listing page may be stale. A new public comment drops its request's entry (see
 * {@link requestCommentsTag}) and console writes drop the app's sooner; the time bounds a read
 * that raced a comment and stored what it read before it.
 */
export const COMMENTERS_CACHE_SECONDS = 10;

/** Where a listing keeps the recent commenters of its app's requests between pages. */
export interface CommentersCache {
  shared: SharedCache;
  appId: string;
}

const commentersKey = (id: string) => `fr-commenters:${id}`;

/**
 * The latest distinct commenters (up to 4, to know whether there are more than 3) per request,
 * among its {@link RECENT_COMMENTS_READ} latest comments, hidden comments excluded: the same
 * answer as the public listing's. With `cache` (the public pages, whose requests are all of one
 * app), each request's answer is kept until its thread changes. Read for every page, they cost
 * it up to its 20 requests times 20 comments, so pages grew dearer with every comment their
 * requests got (0.3 ms a page on SQLite with a comment or so per request, 1 ms with four), and
 * every vote drops the cached pages, so a busy board read them again for nearly every page.
 */
export async function recentCommenters(db: Kysely<Database>, ids: string[], cache?: CommentersCache): Promise<Map<string, Commenter[]>> {
  if (cache === undefined) return readRecentCommenters(db, ids);
  const out = new Map<string, Commenter[]>();
  const hits = await cache.shared.getMany<Commenter[]>(ids.map(commentersKey));
  const missing = ids.filter((id, i) => {
    const hit = hits[i];
    if (hit !== undefined) out.set(id, hit);
    return hit === undefined;
  });
  if (missing.length === 0) return out;
  const read = await readRecentCommenters(db, missing);
  for (const [id, commenters] of await keepCommenters(cache, missing, read)) out.set(id, commenters);
  return out;
}

/**
 * Keeps in the cache the recent commenters read for `ids` (none for an id `read` lacks), as
 * {@link recentCommenters} does with what it reads; answers them by id.
 */
export async function keepCommenters(cache: CommentersCache, ids: readonly string[], read: Map<string, Commenter[]>): Promise<Map<string, Commenter[]>> {
  const out = new Map<string, Commenter[]>();
  const options = (id: string) => ({ ttlMs: COMMENTERS_CACHE_SECONDS * 1000, tags: [appTag(cache.appId), requestCommentsTag(id)] });
  await cache.shared.setMany(
    ids.map((id) => {
      const commenters = read.get(id) ?? [];
      out.set(id, commenters);
      return { key: commentersKey(id), value: commenters, options: options(id) };
    }),
  );
  return out;
}

/**
 * The ids of `rows` whose recent commenters are worth reading: a request without comments has
 * none (its count is of the visible ones, kept exact under the request's lock).
 */
export function commentedIds(rows: ReadonlyArray<{ id: string; commentCount: number }>): string[] {
  return rows.filter((r) => r.commentCount > 0).map((r) => r.id);
}

async function readRecentCommenters(db: Kysely<Database>, ids: string[]): Promise<Map<string, Commenter[]>> {
  if (ids.length === 0) return new Map();
  return commentersOf(await latestComments(db, ids));
}

/**
 * The recent commenters of each request among its latest comments (`comments`, each request's
 * newest first): up to 4 distinct authors, a person by their public id, else the team, else a
 * name.
 */
export function commentersOf(comments: Iterable<LatestComment>): Map<string, Commenter[]> {
  const out = new Map<string, Commenter[]>();
  const seen = new Map<string, Set<string>>();
  for (const row of comments) {
    const list = out.get(row.featureRequestId) ?? [];
    const who = seen.get(row.featureRequestId) ?? new Set<string>();
    const key = row.publicId ?? (row.isTeam === 1 ? "team" : `name:${row.authorName ?? ""}`);
    if (list.length < 4 && !who.has(key)) {
      who.add(key);
      list.push({ authorName: row.authorName, clerkUserId: row.publicId, avatarUrl: null });
    }
    seen.set(row.featureRequestId, who);
    out.set(row.featureRequestId, list);
  }
  return out;
}
