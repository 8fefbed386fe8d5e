import type { SegmentMember, SegmentMembers, SegmentRule } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { ruleCondition } from "./rule.js";
import { ruleOf } from "./segments.js";

/** Opaque cursor: the last end user id of the page (members come newest first, by id). */
function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^eu_[0-9a-z]{1,60}$/.test(id)) throw new ApiError("invalid_cursor");
  return id;
}

/** How many end users of the app the rule holds. */
export async function memberCount(db: Kysely<Database>, appId: string, rule: SegmentRule): Promise<number> {
  const { n } = await db
    .selectFrom("endUsers as u")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where(ruleCondition(db, appId, rule))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * A page of the rule's members, newest end users first (by id, which starts with the creation
 * time), after `cursor`; `400 invalid_cursor` for a cursor this did not hand out.
 */
export async function memberPage(db: Kysely<Database>, appId: string, rule: SegmentRule, page: { limit: number; cursor?: string | undefined }): Promise<Omit<SegmentMembers, "total">> {
  let query = db.selectFrom("endUsers as u").select("u.id").where(ruleCondition(db, appId, rule));
  if (page.cursor !== undefined) query = query.where("u.id", "<", decodeCursor(page.cursor));
  const ids = (await query.orderBy("u.id", "desc").limit(page.limit + 1).execute()).map((r) => r.id);
  const more = ids.length > page.limit;
  const shown = ids.slice(0, page.limit);
  const rows =
    shown.length === 0
      ? []
      : await db
          .selectFrom("endUsers as u")
          .leftJoin("companies as c", "c.id", "u.companyId")
          .select(["u.id", "u.publicId", "u.displayName", "u.email", "u.isPaying", "u.plan", "u.mrrCents", "u.currency"])
          .select(["c.id as companyId", "c.externalId as companyExternalId", "c.name as companyName"])
          .where("u.id", "in", shown)
          .orderBy("u.id", "desc")
          .execute();
  const members = rows.map(
    ({ mrrCents, isPaying, companyId, companyExternalId, companyName, ...u }): SegmentMember => ({
      ...u,
      isPaying: isPaying === null ? null : isPaying === 1,
      mrr: mrrCents === null ? null : Number(mrrCents) / 100,
      company: companyId === null ? null : { id: companyId, externalId: companyExternalId ?? "", name: companyName },
    }),
  );
  return { members, nextCursor: more ? Buffer.from(shown[shown.length - 1]!, "utf8").toString("base64url") : null };
}

/**
 * Which of the app's segments `segmentIds` hold one end user (a private board's reader), by the
 * same SQL as the member list, one statement for them all. A segment since deleted holds no one.
 */
export async function segmentsHolding(db: Kysely<Database>, appId: string, segmentIds: readonly string[], endUserId: string): Promise<Set<string>> {
  if (segmentIds.length === 0) return new Set();
  const rows = await db.selectFrom("segments").select(["id", "rule"]).where("appId", "=", appId).where("id", "in", segmentIds).execute();
  if (rows.length === 0) return new Set();
  const held = await db
    .selectFrom("endUsers as u")
    .select((eb) => rows.map((row, i) => eb.case().when(ruleCondition(db, appId, ruleOf(row))(eb)).then(1).else(0).end().as(`s${i}`)))
    .where("u.id", "=", endUserId)
    .executeTakeFirst();
  const flags = (held ?? {}) as Record<string, number | string>;
  return new Set(rows.filter((_, i) => Number(flags[`s${i}`]) === 1).map((row) => row.id));
}
