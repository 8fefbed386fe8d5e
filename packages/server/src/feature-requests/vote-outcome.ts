import { sql, type Kysely } from "kysely";
import type { Clock } from "../clock.js";
import { eventCompany } from "../companies/event-company.js";
import { isForeignKeyViolation } from "../db/constraint-violations.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { SsoProfile } from "../users/sso.js";
import { queueWebhookEvent } from "../webhooks/events.js";
import { requestSnapshot } from "../webhooks/request-snapshot.js";

/** `toggle` (POST, what the mobile SDKs send) or `remove` (DELETE, idempotent). */
export type VoteMode = "toggle" | "remove";

/** One caller's vote. */
export interface VoteInput {
  featureRequestId: string;
  appId: string;
  token: string;
  mode: VoteMode;
  shipNotifyEmail?: string;
  profile?: SsoProfile;
}

/** A vote's effect: the caller's vote after it, the new count, and whether anything moved. */
export interface VoteOutcome {
  voted: boolean;
  voteCount: number;
  changed: boolean;
}

/**
 * Moves a request's `vote_count` by `by` (the vote added or removed) and answers the vote's
 * effect. The update also decides that the request is still the app's and public: 404
 * `feature_request_not_found` otherwise, and the unit rolls back.
 */
export async function countVote(trx: Kysely<Database>, input: { featureRequestId: string; appId: string }, by: number): Promise<VoteOutcome> {
  // Callers may have found the request through a cache: the update checks it again.
  const counted = await moveCount.first(trx, { id: input.featureRequestId, appId: input.appId, by });
  if (counted === undefined) throw new ApiError("feature_request_not_found");
  return { voted: by > 0, voteCount: Number(counted.voteCount), changed: by !== 0 };
}

/** The request was deleted after the caller found it (through the cache, or on another instance). */
export function requestGone(error: unknown): never {
  throw isForeignKeyViolation(error) ? new ApiError("feature_request_not_found") : error;
}

/** The webhook event of a vote that changed something (nothing is built when the app has no endpoint). */
export function queueVoteEvent(trx: Kysely<Database>, clock: Clock, input: { featureRequestId: string; appId: string }, endUserId: string, voted: boolean): Promise<void> {
  return queueWebhookEvent(trx, clock, input.appId, voted ? "vote.added" : "vote.removed", async () => {
    const request = await requestSnapshot(trx, input.featureRequestId);
    return request === undefined ? undefined : { request, voter: { endUserId }, company: await eventCompany(trx, endUserId) };
  });
}

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
