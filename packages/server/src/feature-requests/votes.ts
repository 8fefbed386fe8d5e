import { sql, type Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { isForeignKeyViolation } from "../db/constraint-violations.js";
import type { Db } from "../db/database.js";
import type { Batch, Outcome } from "../db/group-commit.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { ensureEndUser, newPublicUserId, tokenHash } from "../users/identity.js";
import { lockRequestFindUser } from "./feature-requests.js";
import type { SsoProfile } from "../users/sso.js";
import { queueWebhookEvent, requestSnapshot } from "../webhooks/events.js";
import { eventCompany } from "../companies/event-company.js";

/** `toggle` (POST, what the mobile SDKs send) or `remove` (DELETE, idempotent). */
export type VoteMode = "toggle" | "remove";

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
      outcome = added ? await count(trx, input, 1) : await removeVote(trx, input, endUserId);
    }
    if (outcome.changed) await queueVoteEvent(trx, clock, input, endUserId, outcome.voted);
    await alongside?.(trx);
    return { voted: outcome.voted, voteCount: outcome.voteCount };
  }, input.featureRequestId);
}

/** One caller's vote. */
export interface VoteInput {
  featureRequestId: string;
  appId: string;
  token: string;
  mode: VoteMode;
  shipNotifyEmail?: string;
  profile?: SsoProfile;
}

/** The webhook event of a vote that changed something (nothing is built when the app has no endpoint). */
function queueVoteEvent(trx: Kysely<Database>, clock: Clock, input: { featureRequestId: string; appId: string }, endUserId: string, voted: boolean): Promise<void> {
  return queueWebhookEvent(trx, clock, input.appId, voted ? "vote.added" : "vote.removed", async () => {
    const request = await requestSnapshot(trx, input.featureRequestId);
    return request === undefined ? undefined : { request, voter: { endUserId }, company: await eventCompany(trx, endUserId) };
  });
}

/**
 * PostgreSQL: the votes of one shared transaction, applied in the order they came by one call of
 * `apply_votes` (migration 0023), each vote in a subtransaction of its own: a vote that fails
 * rolls back alone and fails its caller only (a lost deadlock with the `40P01` code, so it is run
 * again). Webhook events of the votes that changed something on an app with an endpoint are
 * queued after the call, in the same transaction.
 */
const votesOnPostgres: Batch<VoteInput & { clock: Clock }, { voted: boolean; voteCount: number }> = {
  async run(trx, votes) {
    const rows = await applyVotes.rows(trx, {
      requestIds: votes.map((v) => v.featureRequestId),
      appIds: votes.map((v) => v.appId),
      tokenHashes: votes.map((v) => tokenHash(v.token)),
      newIds: votes.map((v) => newId("eu", v.clock.now())),
      newPublicIds: votes.map(() => newPublicUserId()),
      shipEmails: votes.map((v) => v.shipNotifyEmail ?? null),
      removes: votes.map((v) => v.mode === "remove"),
      profiles: votes.map((v) => v.profile !== undefined),
      names: votes.map((v) => v.profile?.name ?? null),
      emails: votes.map((v) => v.profile?.email ?? null),
      avatars: votes.map((v) => v.profile?.avatarUrl ?? null),
      now: votes.map((v) => isoNow(v.clock)),
    });
    if (rows.length !== votes.length) throw new Error(`apply_votes answered ${rows.length} rows for ${votes.length} votes`);
    const outcomes: Array<Outcome<{ voted: boolean; voteCount: number }>> = [];
    for (const [i, row] of rows.entries()) {
      const vote = votes[i]!;
      if (row.outcome !== "ok") {
        outcomes.push({ ok: false, error: voteFailure(row) });
        continue;
      }
      if (row.changed === true && row.webhooks === true) await queueVoteEvent(trx, vote.clock, vote, row.endUserId!, row.voted === true);
      outcomes.push({ ok: true, value: { voted: row.voted === true, voteCount: Number(row.voteCount) } });
    }
    return outcomes;
  },
};

/** The error a vote that `apply_votes` rolled back fails with. */
function voteFailure(row: { outcome: string; errorCode: string | null; errorMessage: string | null }): Error {
  if (row.outcome === "not_found") return new ApiError("feature_request_not_found");
  const code = row.outcome === "deadlock" ? "40P01" : (row.errorCode ?? "XX000");
  return Object.assign(new Error(row.errorMessage ?? `vote failed (${row.outcome})`), { code });
}

/** A vote row of `apply_votes`, in the order of the votes given (see migration 0023). */
const applyVotes = preparedQuery<
  {
    requestIds: string[];
    appIds: string[];
    tokenHashes: string[];
    newIds: string[];
    newPublicIds: string[];
    shipEmails: Array<string | null>;
    removes: boolean[];
    profiles: boolean[];
    names: Array<string | null>;
    emails: Array<string | null>;
    avatars: Array<string | null>;
    now: string[];
  },
  {
    outcome: "ok" | "not_found" | "deadlock" | "error";
    endUserId: string | null;
    voted: boolean | null;
    voteCount: number | null;
    changed: boolean | null;
    webhooks: boolean | null;
    errorCode: string | null;
    errorMessage: string | null;
  }
>((db, p) => ({
  compile: () =>
    sql<never>`select outcome, end_user_id, voted, vote_count, changed, webhooks, error_code, error_message
from apply_votes(${p.requestIds}::text[], ${p.appIds}::text[], ${p.tokenHashes}::text[], ${p.newIds}::text[], ${p.newPublicIds}::text[],
  ${p.shipEmails}::text[], ${p.removes}::boolean[], ${p.profiles}::boolean[], ${p.names}::text[], ${p.emails}::text[], ${p.avatars}::text[],
  ${p.now}::text[]) with ordinality
order by ordinality`.compile(db),
}));

/** A vote's effect: the caller's vote after it, the new count, and whether anything moved. */
interface VoteOutcome {
  voted: boolean;
  voteCount: number;
  changed: boolean;
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
  return count(trx, input, removed ? -1 : 0);
}

async function count(trx: Kysely<Database>, input: { featureRequestId: string; appId: string }, by: number): Promise<VoteOutcome> {
  // The count's update also decides, inside the transaction, that the request is still the
  // app's and public: callers may have found it through a cache. If not, the unit rolls back.
  const counted = await moveCount.first(trx, { id: input.featureRequestId, appId: input.appId, by });
  if (counted === undefined) throw new ApiError("feature_request_not_found");
  return { voted: by > 0, voteCount: Number(counted.voteCount), changed: by !== 0 };
}

/** The request was deleted after the caller found it (through the cache, or on another instance). */
function requestGone(error: unknown): never {
  throw isForeignKeyViolation(error) ? new ApiError("feature_request_not_found") : error;
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
  const outcome = await count(trx, vote, added ? 1 : 0);
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
