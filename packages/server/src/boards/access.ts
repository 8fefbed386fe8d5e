import type { Kysely } from "kysely";
import { readThrough, type SharedCache } from "../cache/shared-cache.js";
import { appTag } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { tokenHash, type EndUserIdentity } from "../users/identity.js";
import { readerAttributes, ruleAdmits } from "./access-rules.js";
import { accessRuleOf } from "./board-views.js";
import { listBoards, listBoardsByAppKey, type BoardRow } from "./boards.js";

/** How long an app's boards may be reused from the cache (board writes drop them at once). */
const BOARDS_CACHE_MS = 60_000;

/** The boards one public caller may see, and whether that is every board of the app. */
export interface BoardAudience {
  boards: BoardRow[];
  /** True when no board of the app is hidden from the caller (queries then need no board filter). */
  all: boolean;
  /** Names the set of visible boards in cache keys: answers differ only between different sets. */
  key: string;
}

/**
 * Which boards of an app a public caller sees: every public board, and the private boards whose
 * rule admits them when the host vouched for them (a valid user hash or SSO token). Anonymous and
 * unsigned callers never see a private board.
 */
export async function boardAudience(db: Kysely<Database>, appId: string, identity: EndUserIdentity, cache?: SharedCache): Promise<BoardAudience> {
  const all = await appBoards(db, appId, cache);
  const privateBoards = all.filter((b) => b.visibility === "private");
  if (privateBoards.length === 0) return { boards: all, all: true, key: "all" };
  const attributes =
    identity.identified && identity.token !== null ? await readerAttributes(db, appId, { tokenHash: tokenHash(identity.token) }, privateBoards) : null;
  const boards = all.filter((b) => b.visibility === "public" || (attributes !== null && ruleAdmits(accessRuleOf(b), attributes)));
  if (boards.length === all.length) return { boards, all: true, key: "all" };
  return { boards, all: false, key: boards.map((b) => b.id).join(",") };
}

/** The board a public caller names by slug, if it exists and the caller may see it. */
export function boardBySlug(audience: BoardAudience, slug: string): BoardRow | undefined {
  return audience.boards.find((b) => b.slug === slug);
}

/** An app's boards, through the shared cache when there is one (every public read needs them). */
function appBoards(db: Kysely<Database>, appId: string, cache: SharedCache | undefined): Promise<BoardRow[]> {
  return readThrough(cache, boardsKey(appId), boardsCacheOptions(appId), () => listBoards(db, appId));
}

const boardsKey = (appId: string) => `boards:${appId}`;
const boardsCacheOptions = (appId: string) => ({ ttlMs: BOARDS_CACHE_MS, tags: [appTag(appId)] });

/**
 * Reads the boards of the app behind `appKey` into the cache, where {@link boardAudience} finds
 * them: for a read of an app not in the cache, started beside the app's own (`lookupPublicApp`'s
 * `beside`), so that on PostgreSQL the two cost one round trip instead of two in a row. An
 * unknown key, or an app without boards, stores nothing.
 */
export async function cacheBoardsByAppKey(db: Kysely<Database>, appKey: string, cache: SharedCache): Promise<void> {
  const boards = await listBoardsByAppKey(db, appKey);
  const appId = boards[0]?.appId;
  if (appId !== undefined) await cache.set(boardsKey(appId), boards, boardsCacheOptions(appId));
}

/**
 * The boards a public read covers: the one the caller names by slug (400 `unknown_board` when the
 * app has none by that slug or the caller may not see it: the same answer, so a private board's
 * existence does not leak), else every board the caller sees (undefined when that is all of them).
 */
export function boardsToRead(audience: BoardAudience, slug: string | undefined): string[] | undefined {
  if (slug !== undefined) {
    const board = boardBySlug(audience, slug);
    if (board === undefined) throw new ApiError("unknown_board", { details: { board: slug } });
    return [board.id];
  }
  return audience.all ? undefined : audience.boards.map((b) => b.id);
}

/** Whether a request on `boardId` may be shown to the caller. */
export function audienceSees(audience: BoardAudience, boardId: string): boolean {
  return audience.all || audience.boards.some((b) => b.id === boardId);
}

/** The ids of an app's public boards, for listings every visitor shares (undefined: every board is public). */
export async function publicBoardIds(db: Kysely<Database>, appId: string, cache?: SharedCache): Promise<string[] | undefined> {
  const all = await appBoards(db, appId, cache);
  return all.every((b) => b.visibility === "public") ? undefined : all.filter((b) => b.visibility === "public").map((b) => b.id);
}
