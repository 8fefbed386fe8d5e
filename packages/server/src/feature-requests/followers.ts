import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

/**
 * Moves the follows of a request (`request` followers and `ship` notices, confirmed, pending or
 * unsubscribed) to another request of the same app, as a merge does: each address then hears
 * about the request that stays. An address that follows both keeps its follow of the target,
 * made confirmed when it was only pending there and confirmed on the duplicate; an address that
 * stopped following the target stays stopped. Runs in the caller's transaction.
 *
 * @example
 * ```ts
 * await moveFollowers(trx, duplicate.id, target.id, isoNow(clock));
 * ```
 */
export async function moveFollowers(trx: Kysely<Database>, fromId: string, toId: string, now: string): Promise<void> {
  await trx
    .updateTable("emailSubscriptions")
    .set({ status: "confirmed", confirmNonce: null, confirmedAt: now, updatedAt: now })
    .where("featureRequestId", "=", toId)
    .where("status", "=", "pending")
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("emailSubscriptions as d")
          .select("d.id")
          .where("d.featureRequestId", "=", fromId)
          .where("d.status", "=", "confirmed")
          .whereRef("d.appId", "=", "emailSubscriptions.appId")
          .whereRef("d.kind", "=", "emailSubscriptions.kind")
          .whereRef("d.email", "=", "emailSubscriptions.email"),
      ),
    )
    .execute();
  await trx
    .deleteFrom("emailSubscriptions")
    .where("featureRequestId", "=", fromId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("emailSubscriptions as t")
          .select("t.id")
          .where("t.featureRequestId", "=", toId)
          .whereRef("t.appId", "=", "emailSubscriptions.appId")
          .whereRef("t.kind", "=", "emailSubscriptions.kind")
          .whereRef("t.email", "=", "emailSubscriptions.email"),
      ),
    )
    .execute();
  await trx.updateTable("emailSubscriptions").set({ featureRequestId: toId, updatedAt: now }).where("featureRequestId", "=", fromId).execute();
}
