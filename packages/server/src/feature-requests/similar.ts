import type { FeatureRequestItem } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { SharedCache } from "../cache/shared-cache.js";
import type { Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { listFeatureRequests } from "./listing.js";
import { searchTerms } from "../search/search-text.js";

/** Words this short say little about what a title is about ("a", "to", "in"), unless typed last. */
const MIN_WORD = 3;
/** How many of a title's longest words are searched one by one when no request holds them all. */
const SINGLE_WORDS = 3;

/**
 * Public requests like a title being typed, for a proposer to vote on instead of proposing a
 * duplicate. First the requests holding every word (the last one as a prefix, as it is being
 * typed), by relevance; only when none does, requests holding any of the title's longest words,
 * most of them first, then most votes (a typed sentence rarely matches an existing title word for
 * word). Each pass is the public search itself, full text on both engines.
 *
 * @example
 * ```ts
 * await similarRequests(db, dialect, clock, { appId, title: "dark mo", limit: 5 }); // [Dark mode, …]
 * ```
 */
export async function similarRequests(
  db: Kysely<Database>,
  dialect: DialectName,
  clock: Clock,
  /** `boardIds`: only requests on these boards (the ones the caller may see); absent: every board. */
  input: { appId: string; title: string; limit: number; boardIds?: readonly string[] | undefined },
  cache?: { shared: SharedCache; tags: string[] },
): Promise<FeatureRequestItem[]> {
  const terms = searchTerms(input.title);
  if (terms.length === 0) return [];
  const search = async (q: string, limit: number) =>
    (
      await listFeatureRequests(
        db,
        dialect,
        clock,
        { appId: input.appId, viewerEndUserId: null, limit, offset: 0, cursor: undefined, versionId: undefined, boardIds: input.boardIds, q, sort: "top" },
        cache,
      )
    ).requests;
  const all = await search(terms.join(" "), input.limit);
  if (all.length > 0 || terms.length < 2) return all;

  const words = [...new Set(terms.filter((t, i) => t.length >= MIN_WORD || i === terms.length - 1))]
    .sort((a, b) => b.length - a.length)
    .slice(0, SINGLE_WORDS);
  const hits = new Map<string, { item: FeatureRequestItem; words: number }>();
  for (const word of words) {
    for (const item of await search(word, input.limit)) {
      const hit = hits.get(item.id);
      hits.set(item.id, { item, words: (hit?.words ?? 0) + 1 });
    }
  }
  const partial = [...hits.values()]
    .sort((a, b) => b.words - a.words || b.item.voteCount - a.item.voteCount || (a.item.createdAt < b.item.createdAt ? 1 : -1))
    .map((h) => h.item);
  return partial.slice(0, input.limit);
}
