import { sql } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Db } from "../db/database.js";
import { newId } from "../ids.js";
import { ensureEndUser } from "../users/identity.js";

/** `toggle` (POST, what the mobile SDKs send) or `remove` (DELETE, idempotent). */
export type VoteMode = "toggle" | "remove";

/**
 * Votes or un-votes in one transaction (one commit) and answers the new state. `voteCount` is
 * recounted from the stored votes each time; on PostgreSQL the request row is locked first so
 * concurrent votes on one request are applied one after another and every recount sees the
 * others. Few statements: this is the hottest write path.
 */
export async function applyVote(
  db: Db,
  clock: Clock,
  input: { featureRequestId: string; appId: string; token: string; mode: VoteMode; shipNotifyEmail?: string },
): Promise<{ voted: boolean; voteCount: number }> {
  return db.kysely.transaction().execute(async (trx) => {
    if (db.dialect === "postgres") {
      await trx.selectFrom("featureRequests").select("id").where("id", "=", input.featureRequestId).forUpdate().execute();
    }
    const endUserId = (await ensureEndUser(trx, clock, input.appId, input.token)).id;
    const removed = await trx
      .deleteFrom("featureRequestVotes")
      .where("featureRequestId", "=", input.featureRequestId)
      .where("endUserId", "=", endUserId)
      .returning("id")
      .executeTakeFirst();
    const voted = removed === undefined && input.mode === "toggle";
    if (voted) {
      await trx
        .insertInto("featureRequestVotes")
        .values({
          id: newId("vote", clock.now()),
          featureRequestId: input.featureRequestId,
          endUserId,
          shipNotifyEmail: input.shipNotifyEmail ?? null,
          createdAt: isoNow(clock),
        })
        .execute();
    }
    const { voteCount } = await trx
      .updateTable("featureRequests")
      .set({
        voteCount: sql<number>`(select count(*) from feature_request_votes v where v.feature_request_id = ${input.featureRequestId}) + imported_votes`,
      })
      .where("id", "=", input.featureRequestId)
      .returning("voteCount")
      .executeTakeFirstOrThrow();
    return { voted, voteCount: Number(voteCount) };
  });
}
