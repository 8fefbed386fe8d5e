import { sql } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Batch, Outcome } from "../db/shared-work.js";
import { preparedQuery } from "../db/prepared-query.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { newPublicUserId, tokenHash } from "../users/identity.js";
import { queueVoteEvent, type VoteInput } from "./vote-outcome.js";

/**
 * PostgreSQL: the votes of one shared transaction, applied in the order they came by one call of
 * `apply_votes` (migrations 0023 and 0040): all in one block, or, when any of them fails, again
 * one block (subtransaction) each, so a vote that fails rolls back alone and fails its caller
 * only (a lost deadlock with the `40P01` code, so it is run again). Webhook events of the votes
 * that changed something on an app with an endpoint are queued after the call, in the same
 * transaction. When the transaction would hold these votes and nothing else, the call is sent
 * alone instead and is its own transaction (`alone`, migration 0042).
 */
export const votesOnPostgres: Batch<VoteInput & { clock: Clock }, { voted: boolean; voteCount: number }> = {
  async run(trx, votes) {
    const rows = await applyVotes.rows(trx, argumentsOf(votes));
    const outcomes = outcomesOf(votes, rows);
    for (const [i, row] of rows.entries()) {
      const vote = votes[i]!;
      if (row.outcome === "ok" && row.changed === true && row.webhooks === true) await queueVoteEvent(trx, vote.clock, vote, row.endUserId!, row.voted === true);
    }
    return outcomes;
  },
  // The same call as its own transaction (`apply_votes_alone`, migration 0042): no rows, having
  // written nothing, when an app of the votes has an enabled webhook endpoint, whose events must
  // be queued in the votes' transaction; `TV001` when one was enabled while the votes ran.
  async alone(db, votes) {
    let rows: VoteRow[];
    try {
      rows = await applyVotesAlone.rows(db, argumentsOf(votes));
    } catch (error) {
      if ((error as { code?: unknown }).code === "TV001") return undefined;
      throw error;
    }
    return rows.length === 0 ? undefined : outcomesOf(votes, rows);
  },
};

type VoteArguments = {
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
};

/** A vote row of `apply_votes`, in the order of the votes given (see migrations 0023 and 0040). */
type VoteRow = {
  outcome: "ok" | "not_found" | "deadlock" | "error";
  endUserId: string | null;
  voted: boolean | null;
  voteCount: number | null;
  changed: boolean | null;
  webhooks: boolean | null;
  errorCode: string | null;
  errorMessage: string | null;
};

/** The arrays `apply_votes` takes, one element per vote. */
function argumentsOf(votes: Array<VoteInput & { clock: Clock }>): VoteArguments {
  return {
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
  };
}

/** Each vote's outcome from its row. */
function outcomesOf(votes: readonly unknown[], rows: VoteRow[]): Array<Outcome<{ voted: boolean; voteCount: number }>> {
  if (rows.length !== votes.length) throw new Error(`apply_votes answered ${rows.length} rows for ${votes.length} votes`);
  return rows.map((row) => (row.outcome === "ok" ? { ok: true, value: { voted: row.voted === true, voteCount: Number(row.voteCount) } } : { ok: false, error: voteFailure(row) }));
}

/** The error a vote that `apply_votes` rolled back fails with. */
function voteFailure(row: { outcome: string; errorCode: string | null; errorMessage: string | null }): Error {
  if (row.outcome === "not_found") return new ApiError("feature_request_not_found");
  const code = row.outcome === "deadlock" ? "40P01" : (row.errorCode ?? "XX000");
  return Object.assign(new Error(row.errorMessage ?? `vote failed (${row.outcome})`), { code });
}

/** The call of `apply_votes`, or of `apply_votes_alone`, with every vote's arguments. */
const callOf = (fn: "apply_votes" | "apply_votes_alone") =>
  preparedQuery<VoteArguments, VoteRow>((db, p) => ({
    compile: () =>
      sql<never>`select outcome, end_user_id, voted, vote_count, changed, webhooks, error_code, error_message
from ${sql.raw(fn)}(${p.requestIds}::text[], ${p.appIds}::text[], ${p.tokenHashes}::text[], ${p.newIds}::text[], ${p.newPublicIds}::text[],
  ${p.shipEmails}::text[], ${p.removes}::boolean[], ${p.profiles}::boolean[], ${p.names}::text[], ${p.emails}::text[], ${p.avatars}::text[],
  ${p.now}::text[]) with ordinality
order by ordinality`.compile(db),
  }));

const applyVotes = callOf("apply_votes");
const applyVotesAlone = callOf("apply_votes_alone");
