import type { BoardAccessRule } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { readThrough, type SharedCache } from "../cache/shared-cache.js";
import { appTag } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { segmentsHolding } from "../segments/members.js";
import { tokenHash, type EndUserIdentity } from "../users/identity.js";
import { accessRuleOf } from "./board-views.js";
import { listBoards, type BoardRow } from "./boards.js";

/** How long an app's boards may be reused from the cache (board writes drop them at once). */
const BOARDS_CACHE_MS = 60_000;

/** The attributes a private board's rule is matched on, as the host last reported them. */
export interface ReaderAttributes {
  plan: string | null;
  isPaying: boolean | null;
  /** The segments, of those the app's private boards name, that hold the reader. */
  segmentIds: ReadonlySet<string>;
}

/** Whether a rule admits a user with these attributes: every condition it names must hold. */
export function ruleAdmits(rule: BoardAccessRule | null, attributes: ReaderAttributes): boolean {
  if (rule === null) return true;
  if (rule.plans !== undefined && (attributes.plan === null || !rule.plans.includes(attributes.plan))) return false;
  if (rule.isPaying !== undefined && attributes.isPaying !== rule.isPaying) return false;
  if (rule.segmentId !== undefined && !attributes.segmentIds.has(rule.segmentId)) return false;
  return true;
}

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

/**
 * The attributes a rule is matched on, for the end user of `appId` found by token hash or by id
 * (all unknown when there is none), with the segments of `boards`' rules that hold them.
 */
async function readerAttributes(
  db: Kysely<Database>,
  appId: string,
  who: { tokenHash: string } | { endUserId: string },
  boards: readonly BoardRow[],
): Promise<ReaderAttributes> {
  const users = db.selectFrom("endUsers").select(["id", "plan", "isPaying"]).where("appId", "=", appId);
  const user = await ("tokenHash" in who ? users.where("tokenHash", "=", who.tokenHash) : users.where("id", "=", who.endUserId)).executeTakeFirst();
  const segments = [...new Set(boards.map((b) => accessRuleOf(b)?.segmentId).filter((id) => id !== undefined))];
  return {
    plan: user?.plan ?? null,
    isPaying: user?.isPaying == null ? null : user.isPaying === 1,
    segmentIds: user === undefined || segments.length === 0 ? new Set() : await segmentsHolding(db, appId, segments, user.id),
  };
}

/**
 * Whether an end user (by internal id) would see `board` when signed in: always for a public
 * board, else when the board's rule admits their reported attributes. The team checks it before
 * voting for a customer, who would otherwise follow a request they cannot open.
 */
export async function boardAdmitsEndUser(db: Kysely<Database>, appId: string, board: BoardRow, endUserId: string): Promise<boolean> {
  if (board.visibility === "public") return true;
  return ruleAdmits(accessRuleOf(board), await readerAttributes(db, appId, { endUserId }, [board]));
}

/** The board a public caller names by slug, if it exists and the caller may see it. */
export function boardBySlug(audience: BoardAudience, slug: string): BoardRow | undefined {
  return audience.boards.find((b) => b.slug === slug);
}

/** An app's boards, through the shared cache when there is one (every public read needs them). */
function appBoards(db: Kysely<Database>, appId: string, cache: SharedCache | undefined): Promise<BoardRow[]> {
  return readThrough(cache, `boards:${appId}`, { ttlMs: BOARDS_CACHE_MS, tags: [appTag(appId)] }, () => listBoards(db, appId));
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
