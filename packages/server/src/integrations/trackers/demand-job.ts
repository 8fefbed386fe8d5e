import { sql } from "kysely";
import { isoNow } from "../../clock.js";
import type { Context } from "../../context.js";
import { enqueueJobs } from "../../jobs/queue.js";
import type { JobHandler } from "../../jobs/runner.js";
import { renderDemandBlock, withDemandBlock } from "../demand-block.js";
import { holdDemandWrite, nextDemandWrite } from "../demand-schedule.js";
import { requestDemand } from "../demand.js";
import type { TrackerAdapter } from "./adapter.js";
import { issueAloneGone, settleFailure } from "./call-failures.js";
import { pauseTrackerConnection } from "./connections.js";
import { demandJob, trackerJobKinds } from "./job-kinds.js";

/**
 * Tick step: finds linked requests whose votes or comments changed since their issue's block
 * was written, and queues one write for each, due a minute after the previous write (at once
 * when there was none for a minute). A link with a write already queued, a broken connection or
 * one its tracker asked to pause waits: a vote storm costs one write per issue per minute.
 *
 * @example
 * ```ts
 * runner.step(trackerDemandStep);
 * ```
 */
export async function trackerDemandStep(ctx: Context): Promise<void> {
  const db = ctx.db.kysely;
  const now = isoNow(ctx.clock);
  const changed = await db
    .selectFrom("trackerIssueLinks as l")
    .innerJoin("trackerConnections as c", "c.id", "l.connectionId")
    .select(["l.id", "l.provider", "l.pushedAt"])
    .where("c.status", "=", "active")
    .where((eb) => eb.or([eb("c.pausedUntil", "is", null), eb("c.pausedUntil", "<=", now)]))
    .where("l.syncError", "is", null)
    // Each link looks its request up, rather than joining the two: with SQLite statistics
    // gathered before any link existed, the join was planned as a scan of every request, each
    // tick (36 ms at 200k requests on the thread serving requests, against 0.1 ms this way).
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("featureRequests as fr")
          .select(sql`1`.as("one"))
          .whereRef("fr.id", "=", "l.featureRequestId")
          .where((eb) => eb.or([eb("l.pushedVotes", "is", null), eb("l.pushedVotes", "<>", eb.ref("fr.voteCount")), eb("l.pushedComments", "<>", eb.ref("fr.commentCount"))])),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("jobs as j")
            .select(sql`1`.as("one"))
            .whereRef("j.refId", "=", "l.id")
            .where("j.status", "in", ["pending", "running"])
            .where("j.kind", "in", [trackerJobKinds("github").demand, trackerJobKinds("linear").demand]),
        ),
      ),
    )
    .limit(200)
    .execute();
  if (changed.length === 0) return;
  const nowMs = ctx.clock.now().getTime();
  const jobs = changed.map((link) => demandJob(link.provider, link.id, nextDemandWrite(link.pushedAt, nowMs)));
  await db.transaction().execute((trx) => enqueueJobs(trx, ctx.clock, jobs));
}

/**
 * The demand job handler of every tracker: reads the issue, puts the request's current demand
 * block in its body (replacing the old block, or appending one, nothing else touched) and writes
 * it back when it changed. A rate limit reschedules the job for when the tracker allows; a
 * refused credential or a target that is gone breaks the connection (owners mailed) and ends the
 * job; an issue that is gone ends the link's sync.
 */
export function trackerDemandJobHandler(ctx: Context, adapter: TrackerAdapter): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown): Promise<void> => {
    const { linkId } = raw as { linkId: string };
    const link = await db.selectFrom("trackerIssueLinks").selectAll().where("id", "=", linkId).executeTakeFirst();
    const connection = link === undefined ? undefined : await db.selectFrom("trackerConnections").selectAll().where("id", "=", link.connectionId).executeTakeFirst();
    if (link === undefined || connection === undefined || connection.status !== "active" || link.syncError !== null) return;
    holdDemandWrite(connection.pausedUntil, link.pushedAt, ctx.clock.now().getTime(), adapter.service);
    const demand = await requestDemand(db, ctx.config, link.featureRequestId);
    if (demand === undefined) return;
    const api = adapter.api(ctx, connection, (until) => pauseTrackerConnection(db, connection.id, until));
    try {
      const issue = await api.getIssue(link.issueId);
      const body = withDemandBlock(issue.body, renderDemandBlock(demand));
      if (body !== issue.body) await api.setIssueBody(link.issueId, body);
      const now = isoNow(ctx.clock);
      await db
        .updateTable("trackerIssueLinks")
        .set({ pushedVotes: demand.votes, pushedComments: demand.comments, pushedAt: now, issueTitle: issue.title, ...(issue.state === null ? {} : { issueState: issue.state }), updatedAt: now })
        .where("id", "=", link.id)
        .execute();
    } catch (error) {
      const failure = adapter.classify(error, ctx.clock.now().getTime());
      if (await settleFailure(ctx, adapter, connection.id, failure)) return;
      if (failure.kind !== "not_found") throw error;
      if (await issueAloneGone(ctx, adapter, api, connection.id, error)) {
        await db.updateTable("trackerIssueLinks").set({ syncError: "issue_not_found", updatedAt: isoNow(ctx.clock) }).where("id", "=", link.id).execute();
      }
    }
  };
}
