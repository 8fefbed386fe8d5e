import { sql, type Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { isForeignKeyViolation } from "../db/constraint-violations.js";
import type { Db } from "../db/database.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { ensureEndUser } from "../users/identity.js";
import { queueWebhookEvent, requestSnapshot } from "../webhooks/events.js";
import type { SsoProfile } from "../users/sso.js";

/** `toggle` (POST, what the mobile SDKs send) or `remove` (DELETE, idempotent). */
export type VoteMode = "toggle" | "remove";

/**
 * Votes or un-votes in one transaction and answers the new state once it is committed; on SQLite
 * concurrent votes share a commit (see `Db.sharedTransaction`), which is what lets one writer
 * keep up with thousands of votes a second. `vote_count` moves by the vote added or removed in
 * the same transaction, so it stays equal to the stored votes (plus imported ones) without
 * counting them: the cost of a vote does not grow with the request's votes. Every other path
 * that moves votes (merging duplicates, the demo data) recounts them (`recountVotes`). On
 * PostgreSQL the request row is locked first so concurrent votes on one request are applied one
 * after another. 404 `feature_request_not_found` (nothing written) when the request is not, or
 * no longer, a public request of `appId`. Few statements: this is the hottest write path.
 * `alongside` runs last in the same transaction (the caller's record of the write, such as its
 * idempotency key). Webhook deliveries of the vote are queued in the same transaction (one
 * indexed read when the app has no endpoint).
 */
export async function applyVote(
  db: Db,
  clock: Clock,
  input: { featureRequestId: string; appId: string; token: string; mode: VoteMode; shipNotifyEmail?: string; profile?: SsoProfile },
  alongside?: (trx: Kysely<Database>) => Promise<void>,
): Promise<{ voted: boolean; voteCount: number }> {
  return db.sharedTransaction(async (trx) => {
    if (db.dialect === "postgres") await lockRequest.execute(trx, { id: input.featureRequestId });
    const endUserId = (await ensureEndUser(trx, clock, input.appId, input.token, input.profile)).id;
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
    const removed = !added && (await deleteVote.first(trx, { featureRequestId: input.featureRequestId, endUserId })) !== undefined;
    // The count's update also decides, inside the transaction, that the request is still the
    // app's and public: callers may have found it through a cache. If not, the unit rolls back.
    const counted = await moveCount.first(trx, { id: input.featureRequestId, appId: input.appId, by: added ? 1 : removed ? -1 : 0 });
    if (counted === undefined) throw new ApiError("feature_request_not_found");
    if (added || removed) {
      await queueWebhookEvent(trx, clock, input.appId, added ? "vote.added" : "vote.removed", async () => {
        const request = await requestSnapshot(trx, input.featureRequestId);
        return request === undefined ? undefined : { request, voter: { endUserId } };
      });
    }
    await alongside?.(trx);
    return { voted: added, voteCount: Number(counted.voteCount) };
  });
}

/** The request was deleted after the caller found it (through the cache, or on another instance). */
function requestGone(error: unknown): never {
  throw isForeignKeyViolation(error) ? new ApiError("feature_request_not_found") : error;
}

const lockRequest = preparedQuery<{ id: string }, { id: string }>((db, p) =>
  db.selectFrom("featureRequests").select("id").where("id", "=", p.id).forUpdate(),
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

const moveCount = preparedQuery<{ id: string; appId: string; by: number }, { voteCount: number }>((db, p) =>
  db
    .updateTable("featureRequests")
    .set({ voteCount: sql<number>`vote_count + ${p.by}` })
    .where("id", "=", p.id)
    .where("appId", "=", p.appId)
    .where("moderation", "=", "approved")
    .where("mergedIntoId", "is", null)
    .returning("voteCount"),
);
