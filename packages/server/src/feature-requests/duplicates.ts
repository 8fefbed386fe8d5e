import type { DuplicateList, DuplicatePair, DuplicateRequest } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import { indexedCandidates, type IndexedCandidate } from "./duplicate-candidates.js";
import { titleSimilarity, titleStems } from "./title-similarity.js";

/** The queue lists the pairs of the app's this many newest open requests (not merged, not declined). */
export const DUPLICATE_WINDOW = 1000;
/** Each request is compared, in memory, with this many open requests that came in just before it. */
export const NEIGHBOURS = 200;
/** A page examines at most this many requests, so it may hold fewer pairs than asked and still have a next one. */
export const PAGE_WALK = 50;
/** The most pairs one request is listed in as the newer side: its likeliest duplicates. */
export const PAIRS_PER_REQUEST = 3;
/** Titles less alike than this (see {@link titleSimilarity}) are not offered as duplicates. */
export const MIN_SCORE = 0.5;

interface Open {
  id: string;
  title: string;
  createdAt: string;
}

/** Where a page starts: at request `i` (created `c`, the `n`th of the window), past its first `s` pairs. */
type Cursor = { a: string; c: string; i: string; n: number; s: number };

/** The key of a pair whichever side comes first. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a} ${b}` : `${b} ${a}`;
}

/**
 * A page of the app's duplicates queue: pairs of open requests whose titles look alike, newest
 * first. A pair is listed once, under its newer request, after the pairs of every request created
 * after that one; a request's pairs come most alike first.
 *
 * The work is bounded whatever the size of the app. Only the {@link DUPLICATE_WINDOW} newest open
 * requests are examined as the newer side, at most {@link PAGE_WALK} per page. Each is compared
 * with two kinds of older requests: the {@link NEIGHBOURS} open requests that came in just before
 * it (read with the page, compared in memory, pending ones included), and the older public
 * requests the search index finds for its title's words (a few lookups of at most
 * `LOOKUP_LIMIT` requests each; see `indexedCandidates`). It keeps its {@link PAIRS_PER_REQUEST}
 * best-scoring candidates at or above {@link MIN_SCORE} that were not marked "not a duplicate".
 * So a page costs at most `PAGE_WALK × (NEIGHBOURS + 5 lookups)` comparisons, never a scan of
 * the app.
 *
 * @example
 * ```ts
 * const { pairs, nextCursor } = await listDuplicatePairs(db, "sqlite", { appId, limit: 20 });
 * ```
 */
export async function listDuplicatePairs(
  db: Kysely<Database>,
  dialect: DialectName,
  input: { appId: string; limit: number; cursor?: string | undefined },
): Promise<DuplicateList> {
  const start = input.cursor === undefined ? undefined : decodeCursor<Cursor>(input.cursor, { a: "string", c: "string", i: "string", n: "number", s: "number" }, { a: input.appId });
  const walked = start?.n ?? 0;
  const examine = Math.min(PAGE_WALK, DUPLICATE_WINDOW - walked);
  if (examine <= 0) return { pairs: [], nextCursor: null };
  const rows = await openRequests(db, input.appId, start, examine + NEIGHBOURS);
  const examined = rows.slice(0, examine);
  const dismissed = await dismissedPairs(db, examined.map((r) => r.id));

  const found: Array<{ score: number; newer: string; older: string }> = [];
  let nextCursor: string | null = null;
  let skip = start?.s ?? 0;
  for (const [index, request] of examined.entries()) {
    const position = { a: input.appId, c: request.createdAt, i: request.id, n: walked + index };
    if (found.length === input.limit) {
      nextCursor = encodeCursor({ ...position, s: 0 });
      break;
    }
    const neighbours = rows.slice(index + 1, index + 1 + NEIGHBOURS);
    const candidates = await pairsOf(db, dialect, input.appId, request, neighbours, dismissed);
    for (let taken = skip; taken < candidates.length; taken++) {
      if (found.length === input.limit) {
        nextCursor = encodeCursor({ ...position, s: taken });
        break;
      }
      const candidate = candidates[taken]!;
      found.push({ score: candidate.score, newer: request.id, older: candidate.id });
    }
    skip = 0;
    if (nextCursor !== null) break;
  }
  const following = rows[examined.length];
  if (nextCursor === null && following !== undefined && walked + examine < DUPLICATE_WINDOW) {
    nextCursor = encodeCursor({ a: input.appId, c: following.createdAt, i: following.id, n: walked + examine, s: 0 });
  }
  return { pairs: await describePairs(db, found), nextCursor };
}

/** The app's open requests, newest first, from the cursor's request on. */
function openRequests(db: Kysely<Database>, appId: string, start: Cursor | undefined, limit: number): Promise<Open[]> {
  let query = db
    .selectFrom("featureRequests as fr")
    .select(["fr.id", "fr.title", "fr.createdAt"])
    .where("fr.appId", "=", appId)
    .where("fr.mergedIntoId", "is", null)
    .where("fr.moderation", "!=", "declined");
  if (start !== undefined) {
    query = query.where((eb) => eb.or([eb("fr.createdAt", "<", start.c), eb.and([eb("fr.createdAt", "=", start.c), eb("fr.id", "<=", start.i)])]));
  }
  return query.orderBy("fr.createdAt", "desc").orderBy("fr.id", "desc").limit(limit).execute();
}

/** The pairs marked "not a duplicate" that involve any of `ids`, by {@link pairKey}. */
async function dismissedPairs(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom("duplicateDismissals")
    .select(["firstId", "secondId"])
    .where((eb) => eb.or([eb("firstId", "in", [...ids]), eb("secondId", "in", [...ids])]))
    .execute();
  return new Set(rows.map((r) => pairKey(r.firstId, r.secondId)));
}

/** The likeliest older duplicates of `request`, most alike first (then newest). */
async function pairsOf(
  db: Kysely<Database>,
  dialect: DialectName,
  appId: string,
  request: Open,
  neighbours: readonly Open[],
  dismissed: ReadonlySet<string>,
): Promise<Array<{ id: string; score: number; createdAt: string }>> {
  const stems = titleStems(request.title);
  if (stems.length === 0) return [];
  const candidates = new Map<string, IndexedCandidate>(neighbours.map((n) => [n.id, n]));
  for (const row of await indexedCandidates(db, dialect, { appId, stems, olderThan: request })) candidates.set(row.id, row);
  const scored: Array<{ id: string; score: number; createdAt: string }> = [];
  for (const candidate of candidates.values()) {
    if (dismissed.has(pairKey(request.id, candidate.id))) continue;
    const score = titleSimilarity(stems, titleStems(candidate.title));
    if (score >= MIN_SCORE) scored.push({ id: candidate.id, score, createdAt: candidate.createdAt });
  }
  scored.sort((a, b) => b.score - a.score || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
  return scored.slice(0, PAIRS_PER_REQUEST);
}

/** The pairs with both requests as the queue shows them. */
async function describePairs(db: Kysely<Database>, found: ReadonlyArray<{ score: number; newer: string; older: string }>): Promise<DuplicatePair[]> {
  if (found.length === 0) return [];
  const ids = [...new Set(found.flatMap((p) => [p.newer, p.older]))];
  const rows = await db
    .selectFrom("featureRequests as fr")
    .innerJoin("boards as b", "b.id", "fr.boardId")
    .leftJoin("boardColumns as c", "c.id", "fr.columnId")
    .select([
      "fr.id",
      "fr.title",
      "fr.boardId",
      "b.name as boardName",
      "fr.voteCount",
      "fr.commentCount",
      "fr.moderation",
      "fr.columnId",
      "c.name as columnName",
      "c.slug as columnSlug",
      "fr.createdAt",
    ])
    .where("fr.id", "in", ids)
    .execute();
  const byId = new Map<string, DuplicateRequest>(
    rows.map(({ columnSlug, voteCount, commentCount, ...row }) => [
      row.id,
      { ...row, voteCount: Number(voteCount), commentCount: Number(commentCount), status: columnSlug ?? "open" },
    ]),
  );
  // A request deleted since the pairs were found drops its pair.
  return found.flatMap((p) => {
    const newer = byId.get(p.newer);
    const older = byId.get(p.older);
    return newer === undefined || older === undefined ? [] : [{ score: p.score, newer, older }];
  });
}
