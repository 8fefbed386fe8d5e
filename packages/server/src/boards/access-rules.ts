import type { BoardAccessRule } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { segmentsHolding } from "../segments/members.js";
import { accessRuleOf } from "./board-views.js";
import type { BoardRow } from "./boards.js";

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

/**
 * The attributes a rule is matched on, for the end user of `appId` found by token hash or by id
 * (all unknown when there is none), with the segments of `boards`' rules that hold them.
 */
export async function readerAttributes(
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
