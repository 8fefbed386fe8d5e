import type { FeatureRequestItem } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { SharedCache } from "../cache/shared-cache.js";
import type { DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { publicTagsOf } from "../tags/public-tags.js";
import { toPublicTag } from "../tags/tags.js";
import { idIn } from "../db/named-statements.js";
import { itemRows, toItem } from "./items.js";
import { titleMatches, type TitleLookup, type TitleMatch } from "./title-matches.js";
import { titleStems, typedMatch, typedTitle } from "./title-similarity.js";

/** How many requests holding every word typed are read, to be scored (see titleMatches for which). */
export const FULL_LOOKUP = 50;
/** How many requests each narrower lookup reads, when too few hold every word. */
export const PARTIAL_LOOKUP = 20;
/** How many of the title's longest (rarest) words the narrower lookups are made of. */
export const LOOKUP_TERMS = 4;

/**
 * Public requests like a title being typed, for a proposer to vote on instead of proposing a
 * duplicate: those whose title holds the most of its telling words (the last one as a prefix,
 * as it is being typed; see typedTitle), then the most alike (see typedMatch), then the most
 * voted, then the newest.
 *
 * The work is bounded whatever the size of the board: candidates come from the title index in
 * a few statements of bounded lookups (see titleMatches), and only they are scored. First
 * {@link FULL_LOOKUP} requests holding every word; when fewer than asked do, each of
 * the {@link LOOKUP_TERMS} longest words alone and (from three words on) every set of them but
 * one, {@link PARTIAL_LOOKUP} requests each. The narrower sets find a near-duplicate that lacks
 * one word typed even when every single word is common on the board.
 *
 * @example
 * ```ts
 * await similarRequests(db, dialect, { appId, title: "dark mo", limit: 5 }); // [Dark mode, …]
 * ```
 */
export async function similarRequests(
  db: Kysely<Database>,
  dialect: DialectName,
  /** `boardIds`: only requests on these boards (the ones the caller may see); absent: every board. */
  input: { appId: string; title: string; limit: number; boardIds?: readonly string[] | undefined },
  cache?: { shared: SharedCache; tags: string[] },
): Promise<FeatureRequestItem[]> {
  const typed = typedTitle(input.title);
  if (typed.terms.length === 0 || input.limit <= 0) return [];
  const scope = { appId: input.appId, boardIds: input.boardIds };
  const found = await titleMatches(db, dialect, scope, [{ terms: typed.terms, limit: FULL_LOOKUP }]);
  if (found.length < input.limit && typed.terms.length > 1) {
    const seen = new Set(found.map((m) => m.id));
    for (const match of await titleMatches(db, dialect, scope, narrowerLookups(typed.terms))) {
      if (!seen.has(match.id)) found.push(match);
    }
  }
  const ranked = found
    .map((match) => ({ match, ...typedMatch(typed, titleStems(match.title)) }))
    .filter((r) => r.held > 0)
    .sort((a, b) => b.held - a.held || b.similarity - a.similarity || newerFirst(a.match, b.match))
    .slice(0, input.limit)
    .map((r) => r.match.id);
  return itemsOf(db, input.appId, ranked, cache?.shared);
}

/** Each of the longest terms alone and, from three of them, every set of them but one. */
function narrowerLookups(terms: readonly string[]): TitleLookup[] {
  const longest = [...terms].sort((a, b) => b.length - a.length).slice(0, LOOKUP_TERMS);
  const lookups = longest.map((term) => ({ terms: [term], limit: PARTIAL_LOOKUP }));
  if (longest.length >= 3) {
    for (const left of longest) lookups.push({ terms: longest.filter((term) => term !== left), limit: PARTIAL_LOOKUP });
  }
  return lookups;
}

/** Most votes first, then newest, as the `top` order ties them. */
function newerFirst(a: TitleMatch, b: TitleMatch): number {
  return b.voteCount - a.voteCount || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** The items of `ids`, in that order, as an anonymous visitor sees them. */
async function itemsOf(db: Kysely<Database>, appId: string, ids: string[], shared: SharedCache | undefined): Promise<FeatureRequestItem[]> {
  if (ids.length === 0) return [];
  const [rows, tags] = await Promise.all([itemRows(db).where(idIn(db, "fr.id", ids)).execute(), publicTagsOf(db, appId, ids, shared)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (row === undefined) return [];
    return [toItem(row, { hasVoted: false, isOwnRequest: false }, (tags.get(id) ?? []).map(toPublicTag))];
  });
}
