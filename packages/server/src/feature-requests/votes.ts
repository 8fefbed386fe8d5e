import { sql, type Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { isForeignKeyViolation } from "../db/constraint-violations.js";
import type { Db } from "../db/database.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { ensureEndUser, newPublicUserId, tokenHash } from "../users/identity.js";
import type { SsoProfile } from "../users/sso.js";
import { queueWebhookEvent, requestSnapshot } from "../webhooks/events.js";

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
  // Keyed by the request: its votes share transactions, never wait for each other's lock.
  return db.sharedTransaction(async (trx) => {
    let endUserId: string;
    let outcome: VoteOutcome;
    let webhooks = true;
    const oneStatement = db.dialect === "postgres" && input.mode === "toggle" && input.profile === undefined ? await toggleInOneStatement(trx, clock, input) : undefined;
    if (oneStatement !== undefined) {
      ({ endUserId, outcome, webhooks } = oneStatement);
    } else if (db.dialect === "postgres") {
      const locked = await lockRequestFindVoter.first(trx, { id: input.featureRequestId, appId: input.appId, hash: tokenHash(input.token) });
      if (locked === undefined) throw new ApiError("feature_request_not_found");
      const voter = locked.endUserId === null || locked.publicId === null ? null : { id: locked.endUserId, publicId: locked.publicId };
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
    if (outcome.changed && webhooks) {
      await queueWebhookEvent(trx, clock, input.appId, outcome.voted ? "vote.added" : "vote.removed", async () => {
        const request = await requestSnapshot(trx, input.featureRequestId);
        return request === undefined ? undefined : { request, voter: { endUserId } };
      });
    }
    await alongside?.(trx);
    return { voted: outcome.voted, voteCount: outcome.voteCount };
  }, input.featureRequestId);
}

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

/**
 * PostgreSQL, the common toggle (no SSO profile to store) in one round trip: {@link toggleVoteMintVoter}.
 * Undefined when that statement could not decide and the vote has to take the longer path,
 * which then runs in the same unit, under the lock the statement took: the voter was being minted
 * by a concurrent transaction, or the statement waited for the request's lock while another
 * transaction changed the caller's vote (its snapshot predates the lock, so it saw neither).
 */
async function toggleInOneStatement(
  trx: Kysely<Database>,
  clock: Clock,
  input: { featureRequestId: string; appId: string; token: string; shipNotifyEmail?: string },
): Promise<{ endUserId: string; outcome: VoteOutcome; webhooks: boolean } | undefined> {
  const now = isoNow(clock);
  const row = await toggleVoteMintVoter.first(trx, {
    featureRequestId: input.featureRequestId,
    appId: input.appId,
    hash: tokenHash(input.token),
    newEndUserId: newId("eu", clock.now()),
    newPublicId: newPublicUserId(),
    shipNotifyEmail: input.shipNotifyEmail ?? null,
    now,
  });
  if (row?.requestId === null || row?.requestId === undefined) throw new ApiError("feature_request_not_found");
  const added = Number(row.added);
  if (row.endUserId === null || added + Number(row.removed) === 0) return undefined;
  if (row.voteCount === null) throw new ApiError("feature_request_not_found");
  return { endUserId: row.endUserId, outcome: { voted: added > 0, voteCount: Number(row.voteCount), changed: true }, webhooks: row.webhooks };
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
 * PostgreSQL: a whole toggle in one statement, where it was four round trips (lock and find the
 * voter, mint a new voter, toggle, look for webhook endpoints). In order: lock the request (`fr`,
 * before anything else is written: every later step depends on it, see `ensureEndUser`), find
 * the voter or mint one (`found`, `minted`: on a token minted meanwhile by another transaction the
 * insert does nothing and `end_user_id` comes back null), then the toggle of
 * {@link toggleOnPostgres} (only a known voter can have a vote to delete), and whether the app
 * has an enabled webhook endpoint at all (`webhooks`: without one, no event is built).
 * `request_id` is null when the request does not exist, `vote_count` when it is not the app's
 * public request (the unit then rolls back).
 */
const toggleVoteMintVoter = preparedQuery<
  { featureRequestId: string; appId: string; hash: string; newEndUserId: string; newPublicId: string; shipNotifyEmail: string | null; now: string },
  { requestId: string | null; endUserId: string | null; added: number; removed: number; voteCount: number | null; webhooks: boolean }
>((db, p) => ({
  compile: () =>
    sql<never>`with fr as (
  select id from feature_requests where id = ${p.featureRequestId} for update
), found as (
  select id from end_users where app_id = ${p.appId} and token_hash = ${p.hash}
), minted as (
  insert into end_users (id, app_id, token_hash, public_id, created_at, last_seen_at)
  select ${p.newEndUserId}, ${p.appId}, ${p.hash}, ${p.newPublicId}, ${p.now}, ${p.now}
  where exists (select 1 from fr) and not exists (select 1 from found)
  on conflict (app_id, token_hash) do nothing
  returning id
), voter as (
  select id from found union all select id from minted
), ins as (
  insert into feature_request_votes (feature_request_id, end_user_id, ship_notify_email, created_at)
  select fr.id, voter.id, ${p.shipNotifyEmail}, ${p.now} from fr, voter
  on conflict (feature_request_id, end_user_id) do nothing
  returning end_user_id
), del as (
  delete from feature_request_votes
  where feature_request_id = (select id from fr) and end_user_id = (select id from found)
  returning end_user_id
), upd as (
  update feature_requests set vote_count = vote_count + (select count(*) from ins) - (select count(*) from del)
  where id = (select id from fr) and app_id = ${p.appId} and moderation = 'approved' and merged_into_id is null
    and exists (select 1 from voter) and (select count(*) from ins) + (select count(*) from del) > 0
  returning vote_count
)
select (select id from fr) as request_id, (select id from voter) as end_user_id,
  (select count(*) from ins) as added, (select count(*) from del) as removed,
  (select vote_count from upd) as vote_count,
  exists (select 1 from webhook_endpoints where app_id = ${p.appId} and enabled = 1) as webhooks`.compile(db),
}));

/**
 * PostgreSQL: locks the request (so concurrent votes on it are applied one after another, and
 * before the end user is minted: see `ensureEndUser`) and finds the voter in the same round trip.
 * No row when the request does not exist.
 */
const lockRequestFindVoter = preparedQuery<
  { id: string; appId: string; hash: string },
  { id: string; endUserId: string | null; publicId: string | null }
>((db, p) =>
  db
    .selectFrom((eb) => eb.selectFrom("featureRequests").select("id").where("id", "=", p.id).forUpdate().as("fr"))
    .leftJoin("endUsers as eu", (join) => join.on("eu.appId", "=", p.appId).on("eu.tokenHash", "=", p.hash))
    .select(["fr.id", "eu.id as endUserId", "eu.publicId"]),
);

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
