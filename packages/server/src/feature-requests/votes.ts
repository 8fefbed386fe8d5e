import { sql, type Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Db } from "../db/database.js";
import { ApiError } from "../http/errors.js";
import { ensureEndUser, tokenHash } from "../users/identity.js";
import { lockRequestFindUser } from "./request-locks.js";
import { votesOnPostgres } from "./vote-batch.js";
import { countVote, queueVoteEvent, requestGone, type VoteInput, type VoteOutcome } from "./vote-outcome.js";

export type { VoteInput, VoteMode } from "./vote-outcome.js";

/**
 * Votes or un-votes in one transaction and answers the new state once it is committed;
 * concurrent votes share transactions and their commits (see `Db.sharedTransaction`), which is
 * what lets one SQLite writer, or PostgreSQL's flushes of its log, keep up with thousands of
 * votes a second. `vote_count` moves by the vote added or removed in
 * the same transaction, so it stays equal to the stored votes (plus imported ones) without
 * counting them: the cost of a vote does not grow with the request's votes. Every other path
 * that moves votes (merging duplicates, the demo data) recounts them (`recountVotes`). On
 * PostgreSQL the request row is locked first so concurrent votes on one request are applied one
 * after another, and the votes of one shared transaction are applied by one call of
 * `apply_votes` (migration 0023): one round trip for all of them. 404 `feature_request_not_found`
 * (nothing written) when the request is not, or no longer, a public request of `appId`. Few
 * statements: this is the hottest write path. `alongside` runs last in the same transaction (the
 * caller's record of the write, such as its idempotency key; such votes take the path of one
 * vote at a time). Webhook deliveries of the vote are queued in the same transaction (one
 * indexed read when the app has no endpoint).
 */
export async function applyVote(
  db: Db,
  clock: Clock,
  input: VoteInput,
  alongside?: (trx: Kysely<Database>) => Promise<void>,
): Promise<{ voted: boolean; voteCount: number }> {
  // Keyed by the request: its votes share transactions, never wait for each other's lock.
  // A company claim is written by `ensureEndUser`, which `apply_votes` does not run.
  if (db.dialect === "postgres" && alongside === undefined && input.profile?.company === undefined) {
    return db.sharedTransaction({ batch: votesOnPostgres, input: { ...input, clock } }, input.featureRequestId);
  }
  return db.sharedTransaction(async (trx) => {
    let endUserId: string;
    let outcome: VoteOutcome;
    if (db.dialect === "postgres") {
      const voter = await lockRequestFindUser(trx, { id: input.featureRequestId, appId: input.appId, hash: tokenHash(input.token) });
      endUserId = (await ensureEndUser(trx, clock, input.appId, input.token, input.profile, voter)).id;
      outcome = input.mode === "toggle" ? await toggle(trx, clock, input, endUserId) : await removeVote(trx, input, endUserId);
    } else {
      endUserId = (await ensureEndUser(trx, clock, input.appId, input.token, input.profile)).id;
      // A toggle adds the vote unless there is one already (then it removes it): one statement
      // for the common case, a new vote.
      const added =
        input.mode === "toggle" &&
        (await insertVote
          .first(trx, {
            featureRequestId: input.featureRequestId,
            endUserId,
            shipNotifyEmail: input.shipNotifyEmail ?? null,
            createdAt: isoNow(clock),
          })
          .catch(requestGone)) !== undefined;
      outcome = added ? await countVote(trx, input, 1) : await removeVote(trx, input, endUserId);
    }
    if (outcome.changed) await queueVoteEvent(trx, clock, input, endUserId, outcome.voted);
    await alongside?.(trx);
    return { voted: outcome.voted, voteCount: outcome.voteCount };
  }, input.featureRequestId);
}

/** PostgreSQL, after the request is locked: the toggle's own statement (see {@link toggleOnPostgres}). */
async function toggle(
  trx: Kysely<Database>,
  clock: Clock,
  input: { featureRequestId: string; appId: string; shipNotifyEmail?: string },
  endUserId: string,
): Promise<VoteOutcome> {
  const toggled = await toggleOnPostgres.first(trx, {
    featureRequestId: input.featureRequestId,
    appId: input.appId,
    endUserId,
    shipNotifyEmail: input.shipNotifyEmail ?? null,
    createdAt: isoNow(clock),
  });
  if (toggled?.voteCount === null || toggled?.voteCount === undefined) throw new ApiError("feature_request_not_found");
  // A toggle always adds or removes the caller's vote.
  return { voted: Number(toggled.added) > 0, voteCount: Number(toggled.voteCount), changed: true };
}

async function removeVote(trx: Kysely<Database>, input: { featureRequestId: string; appId: string }, endUserId: string): Promise<VoteOutcome> {
  const removed = (await deleteVote.first(trx, { featureRequestId: input.featureRequestId, endUserId })) !== undefined;
  return countVote(trx, input, removed ? -1 : 0);
}

/**
 * PostgreSQL: a toggle in one statement. The insert adds the vote unless there is one; the
 * delete sees the table as it was before the statement, so it removes the vote only if there was
 * one; the count moves by the difference, only while the request is the app's and public
 * (`vote_count` null otherwise, and the unit rolls back).
 */
const toggleOnPostgres = preparedQuery<
  { featureRequestId: string; appId: string; endUserId: string; shipNotifyEmail: string | null; createdAt: string },
  { added: number; voteCount: number | null }
>((db, p) =>
  db
    .with("ins", (qb) =>
      qb
        .insertInto("featureRequestVotes")
        .values({ featureRequestId: p.featureRequestId, endUserId: p.endUserId, shipNotifyEmail: p.shipNotifyEmail, createdAt: p.createdAt })
        .onConflict((oc) => oc.columns(["featureRequestId", "endUserId"]).doNothing())
        .returning("endUserId"),
    )
    .with("del", (qb) =>
      qb.deleteFrom("featureRequestVotes").where("featureRequestId", "=", p.featureRequestId).where("endUserId", "=", p.endUserId).returning("endUserId"),
    )
    .with("upd", (qb) =>
      qb
        .updateTable("featureRequests")
        .set({ voteCount: sql<number>`vote_count + (select count(*) from ins) - (select count(*) from del)` })
        .where("id", "=", p.featureRequestId)
        .where("appId", "=", p.appId)
        .where("moderation", "=", "approved")
        .where("mergedIntoId", "is", null)
        .returning("voteCount"),
    )
    .selectNoFrom([sql<number>`(select count(*) from ins)`.as("added"), sql<number | null>`(select vote_count from upd)`.as("voteCount")]),
);

const deleteVote = preparedQuery<{ featureRequestId: string; endUserId: string }, { endUserId: string }>((db, p) =>
  db.deleteFrom("featureRequestVotes").where("featureRequestId", "=", p.featureRequestId).where("endUserId", "=", p.endUserId).returning("endUserId"),
);

const insertVote = preparedQuery<
  { featureRequestId: string; endUserId: string; shipNotifyEmail: string | null; createdAt: string },
  { endUserId: string }
>((db, p) =>
  db
    .insertInto("featureRequestVotes")
    .values({ featureRequestId: p.featureRequestId, endUserId: p.endUserId, shipNotifyEmail: p.shipNotifyEmail, createdAt: p.createdAt })
    .onConflict((oc) => oc.columns(["featureRequestId", "endUserId"]).doNothing())
    .returning("endUserId"),
);
