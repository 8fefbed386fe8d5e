import type { BoardAccessRule } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { tokenHash, type EndUserIdentity } from "../users/identity.js";
import { accessRuleOf, listBoards, type BoardRow } from "./boards.js";

/** The attributes a private board's rule is matched on, as the host last reported them. */
export interface ReaderAttributes {
  plan: string | null;
  isPaying: boolean | null;
}

/** Whether a rule admits a user with these attributes: every condition it names must hold. */
export function ruleAdmits(rule: BoardAccessRule | null, attributes: ReaderAttributes): boolean {
  if (rule === null) return true;
  if (rule.plans !== undefined && (attributes.plan === null || !rule.plans.includes(attributes.plan))) return false;
  if (rule.isPaying !== undefined && attributes.isPaying !== rule.isPaying) return false;
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
export async function boardAudience(db: Kysely<Database>, appId: string, identity: EndUserIdentity): Promise<BoardAudience> {
  const all = await listBoards(db, appId);
  const privateBoards = all.filter((b) => b.visibility === "private");
  if (privateBoards.length === 0) return { boards: all, all: true, key: "all" };
  let attributes: ReaderAttributes | null = null;
  if (identity.identified && identity.token !== null) {
    const user = await db
      .selectFrom("endUsers")
      .select(["plan", "isPaying"])
      .where("appId", "=", appId)
      .where("tokenHash", "=", tokenHash(identity.token))
      .executeTakeFirst();
    attributes = { plan: user?.plan ?? null, isPaying: user?.isPaying == null ? null : user.isPaying === 1 };
  }
  const boards = all.filter((b) => b.visibility === "public" || (attributes !== null && ruleAdmits(accessRuleOf(b), attributes)));
  if (boards.length === all.length) return { boards, all: true, key: "all" };
  return { boards, all: false, key: boards.map((b) => b.id).join(",") };
}

/** The board a public caller names by slug, if it exists and the caller may see it. */
export function boardBySlug(audience: BoardAudience, slug: string): BoardRow | undefined {
  return audience.boards.find((b) => b.slug === slug);
}
