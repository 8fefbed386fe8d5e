import type { Kysely } from "kysely";
import type { SharedCache } from "../cache/shared-cache.js";
import { appTag } from "../context.js";
import type { Database } from "../db/schema.js";
import { inList, preparedQuery } from "../db/prepared-query.js";
import { ApiError } from "../http/errors.js";
import { TAG_COLUMNS, type TagRow } from "./tags.js";

/** How long an app's public tags may be reused from the cache (tag writes drop them at once). */
const TAGS_CACHE_MS = 60_000;

/**
 * An app's public tags, by name, through the shared cache when there is one: every public page
 * filtered by a tag names it by slug, and every page shows its requests' tags.
 */
export async function appPublicTags(db: Kysely<Database>, appId: string, cache: SharedCache | undefined): Promise<TagRow[]> {
  const read = () => publicTagsOfApp.rows(db, { appId });
  if (cache === undefined) return read();
  const key = `public-tags:${appId}`;
  const hit = await cache.get<TagRow[]>(key);
  if (hit !== undefined) return hit;
  const rows = await read();
  await cache.set(key, rows, { ttlMs: TAGS_CACHE_MS, tags: [appTag(appId)] });
  return rows;
}

/**
 * The ids of the public tags a listing filters on, by slug; a slug the app has no public tag by
 * (unknown or team-only: the same answer) is 400 `unknown_tag`.
 */
export async function publicTagIds(db: Kysely<Database>, appId: string, slugs: readonly string[], cache?: SharedCache): Promise<string[]> {
  const wanted = [...new Set(slugs)];
  if (wanted.length === 0) return [];
  const bySlug = new Map((await appPublicTags(db, appId, cache)).map((t) => [t.slug, t.id]));
  const missing = wanted.filter((slug) => !bySlug.has(slug));
  if (missing.length > 0) throw new ApiError("unknown_tag", { details: { tags: missing } });
  return wanted.map((slug) => bySlug.get(slug)!);
}

/**
 * The public tags each request of one app carries, by request id, in name order: the pairs are
 * read from the tag rows' primary key alone, the tags themselves from {@link appPublicTags}.
 */
export async function publicTagsOf(db: Kysely<Database>, appId: string, featureRequestIds: readonly string[], cache: SharedCache | undefined): Promise<Map<string, TagRow[]>> {
  const out = new Map<string, TagRow[]>();
  if (featureRequestIds.length === 0) return out;
  // An app without a public tag: its pages read no pairs (0.3 ms of a cold page of 50 on SQLite).
  const tags = await appPublicTags(db, appId, cache);
  if (tags.length === 0) return out;
  const pairs = await tagPairsOf(db, featureRequestIds);
  const position = new Map(tags.map((t, i) => [t.id, i]));
  for (const { featureRequestId, tagId } of pairs) {
    if (!position.has(tagId)) continue;
    const list = out.get(featureRequestId) ?? [];
    list.push(tags[position.get(tagId)!]!);
    out.set(featureRequestId, list);
  }
  for (const list of out.values()) list.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  return out;
}

/**
 * Which tags (public or not) each of `featureRequestIds` carries, as pairs read from the tag rows'
 * primary key: one prepared statement for any number of ids.
 */
export function tagPairsOf(db: Kysely<Database>, featureRequestIds: readonly string[]): Promise<Array<{ featureRequestId: string; tagId: string }>> {
  return tagPairs.rows(db, { ids: featureRequestIds });
}

const tagPairs = preparedQuery<{ ids: readonly string[] }, { featureRequestId: string; tagId: string }>((db, p) =>
  db.selectFrom("featureRequestTags").select(["featureRequestId", "tagId"]).where(inList(db, "featureRequestId", p.ids)),
);

// Read for every public page of an app not in the cache: built once, and a named statement on
// PostgreSQL (its columns are listed, see everyColumn).
const publicTagsOfApp = preparedQuery<{ appId: string }, TagRow>((db, p) =>
  db.selectFrom("tags").select(TAG_COLUMNS).where("appId", "=", p.appId).where("visibility", "=", "public").orderBy("name").orderBy("id"),
);
