import { sql, type Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Db } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { countVote, queueVoteEvent, requestGone } from "./vote-outcome.js";

/**
 * A vote the voter did not cast themselves: added by the team on their behalf (`addedBy`, with
 * its `note`), or by linking their feedback to the request (`sourceSubmissionId`).
 */
export interface VoteFor {
  featureRequestId: string;
  appId: string;
  endUserId: string;
  addedBy?: string | null;
  note?: string | null;
  sourceSubmissionId?: string | null;
}

/**
 * Adds `vote.endUserId`'s vote unless they have one (then nothing moves: idempotent), in the
 * caller's transaction, which should be a `Db.sharedTransaction` keyed by the request as votes'
 * are. The count moves by the vote added, as {@link applyVote}'s does; on PostgreSQL the request
 * row is locked first, in the order the voting path takes its locks. 404
 * `feature_request_not_found` (the unit rolls back) when the request is not a public request of
 * the app.
 *
 * @example
 * ```ts
 * await db.sharedTransaction((trx) => addVoteFor(trx, clock, db.dialect, { featureRequestId, appId, endUserId, addedBy: userId, note }), featureRequestId);
 * ```
 */
export async function addVoteFor(trx: Kysely<Database>, clock: Clock, dialect: Db["dialect"], vote: VoteFor): Promise<{ added: boolean; voteCount: number }> {
  if (dialect === "postgres") await lockRequest(trx, vote.featureRequestId);
  const inserted = await trx
    .insertInto("featureRequestVotes")
    .values({
      featureRequestId: vote.featureRequestId,
      endUserId: vote.endUserId,
      shipNotifyEmail: null,
      createdAt: isoNow(clock),
      addedBy: vote.addedBy ?? null,
      note: vote.note ?? null,
      sourceSubmissionId: vote.sourceSubmissionId ?? null,
    })
    .onConflict((oc) => oc.columns(["featureRequestId", "endUserId"]).doNothing())
    .returning("endUserId")
    .executeTakeFirst()
    .catch(requestGone);
  const added = inserted !== undefined;
  const outcome = await countVote(trx, vote, added ? 1 : 0);
  if (added) await queueVoteEvent(trx, clock, vote, vote.endUserId, true);
  return { added, voteCount: outcome.voteCount };
}

/**
 * Removes the vote the link of feedback `submissionId` added, if it is still there, and nothing
 * else: a vote the voter cast themselves (or cast again after removing the linked one) stays.
 * When another linked feedback of the same voter on the request is left, the vote stays and is
 * credited to it instead. Runs in the caller's shared transaction like {@link addVoteFor}; the
 * count moves even when the request is no longer public (it was counted while it was). Answers
 * whether a vote was removed.
 */
export async function removeLinkedVote(
  trx: Kysely<Database>,
  clock: Clock,
  dialect: Db["dialect"],
  link: { featureRequestId: string; appId: string; endUserId: string; submissionId: string },
): Promise<boolean> {
  if (dialect === "postgres") await lockRequest(trx, link.featureRequestId);
  const other = await trx
    .selectFrom("submissions")
    .select("id")
    .where("featureRequestId", "=", link.featureRequestId)
    .where("endUserId", "=", link.endUserId)
    .where("id", "!=", link.submissionId)
    .orderBy("linkedAt")
    .orderBy("id")
    .executeTakeFirst();
  if (other !== undefined) {
    await trx
      .updateTable("featureRequestVotes")
      .set({ sourceSubmissionId: other.id })
      .where("featureRequestId", "=", link.featureRequestId)
      .where("endUserId", "=", link.endUserId)
      .where("sourceSubmissionId", "=", link.submissionId)
      .execute();
    return false;
  }
  const removed = await trx
    .deleteFrom("featureRequestVotes")
    .where("featureRequestId", "=", link.featureRequestId)
    .where("endUserId", "=", link.endUserId)
    .where("sourceSubmissionId", "=", link.submissionId)
    .returning("endUserId")
    .executeTakeFirst();
  if (removed === undefined) return false;
  await trx.updateTable("featureRequests").set({ voteCount: sql<number>`vote_count - 1` }).where("id", "=", link.featureRequestId).execute();
  await queueVoteEvent(trx, clock, link, link.endUserId, false);
  return true;
}

/**
 * PostgreSQL: locks a request's row, as the voting path does before it touches the voter, so a
 * transaction that writes an end user and then a vote takes its locks in the same order.
 */
export async function lockRequest(trx: Kysely<Database>, id: string): Promise<void> {
  await trx.selectFrom("featureRequests").select("id").where("id", "=", id).forUpdate().execute();
}
