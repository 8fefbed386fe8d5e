import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

/** A company as webhook events carry it. */
export interface EventCompany {
  id: string;
  /** The host's id. */
  externalId: string;
  name: string | null;
  /** Monthly revenue in currency units, or null when unknown. */
  mrr: number | null;
  currency: string;
  plan: string | null;
}

/**
 * The company an end user belongs to as of the caller's transaction, for an event's payload; null
 * for no user or no company.
 *
 * @example
 * ```ts
 * await queueWebhookEvent(trx, clock, appId, "vote.added", async () => ({ request, voter, company: await eventCompany(trx, endUserId) }));
 * ```
 */
export async function eventCompany(db: Kysely<Database>, endUserId: string | null): Promise<EventCompany | null> {
  if (endUserId === null) return null;
  const row = await db
    .selectFrom("endUsers as u")
    .innerJoin("companies as c", "c.id", "u.companyId")
    .select(["c.id", "c.externalId", "c.name", "c.mrrCents", "c.currency", "c.plan"])
    .where("u.id", "=", endUserId)
    .executeTakeFirst();
  if (row === undefined) return null;
  const { mrrCents, ...company } = row;
  return { ...company, mrr: mrrCents === null ? null : Number(mrrCents) / 100 };
}
