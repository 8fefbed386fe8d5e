import { sql } from "kysely";
import { isoNow } from "../../clock.js";
import { appTag, type Context } from "../../context.js";
import { updateRequest } from "../../feature-requests/request-edits.js";
import { enqueueJobs } from "../../jobs/queue.js";
import { RetryLater } from "../../jobs/job-outcomes.js";
import type { JobHandler } from "../../jobs/runner.js";
import { listColumns } from "../../roadmap/columns.js";
import { renderDemandBlock, withDemandBlock, withoutDemandBlock } from "../demand-block.js";
import { holdDemandWrite, nextDemandWrite } from "../demand-schedule.js";
import { requestDemand } from "../demand.js";
import type { TrackerAdapter, TrackerApi, TrackerFailure } from "./adapter.js";
import { markBroken } from "./broken.js";
import { pauseTrackerConnection } from "./connections.js";
import { demandJob, trackerJobKinds } from "./job-kinds.js";

/** How the event log names a change a tracker made: `integration:github`. */
export function trackerActor(adapter: Pick<TrackerAdapter, "provider">): string {
  return `integration:${adapter.provider}`;
}

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
    .innerJoin("featureRequests as fr", "fr.id", "l.featureRequestId")
    .innerJoin("trackerConnections as c", "c.id", "l.connectionId")
    .select(["l.id", "l.provider", "l.pushedAt"])
    .where("c.status", "=", "active")
    .where((eb) => eb.or([eb("c.pausedUntil", "is", null), eb("c.pausedUntil", "<=", now)]))
    .where("l.syncError", "is", null)
    .where((eb) => eb.or([eb("l.pushedVotes", "is", null), eb("l.pushedVotes", "<>", eb.ref("fr.voteCount")), eb("l.pushedComments", "<>", eb.ref("fr.commentCount"))]))
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
 * What a failed outbound call does to its job: a rate limit pauses the connection and
 * reschedules the job; a refused credential, or a target that is gone, breaks the connection
 * (owners mailed). Answers whether the failure was settled; a 404 on the issue is left to the caller.
 */
async function settleFailure(ctx: Context, adapter: TrackerAdapter, connectionId: string, failure: TrackerFailure): Promise<boolean> {
  if (failure.kind === "rate_limited") {
    await pauseTrackerConnection(ctx.db.kysely, connectionId, new Date(ctx.clock.now().getTime() + failure.retryAfterMs));
    throw new RetryLater(`${adapter.service} rate limit`, failure.retryAfterMs);
  }
  if (failure.kind === "unauthorized" || failure.kind === "forbidden") {
    await markBroken(ctx, adapter, connectionId, failure.kind);
    return true;
  }
  if (failure.kind === "gone") {
    await markBroken(ctx, adapter, connectionId, failure.reason);
    return true;
  }
  return false;
}

/** After a 404 on an issue: whether the issue alone is gone (true), or the target is and the connection was broken (false). */
async function issueAloneGone(ctx: Context, adapter: TrackerAdapter, api: TrackerApi, connectionId: string, error: unknown): Promise<boolean> {
  if (adapter.targetGoneReason === undefined || api.probeTarget === undefined) return true;
  const probe = await api.probeTarget();
  if (probe === undefined) return true;
  if (probe.kind === "not_found") {
    await markBroken(ctx, adapter, connectionId, adapter.targetGoneReason);
    return false;
  }
  if (await settleFailure(ctx, adapter, connectionId, probe)) return false;
  throw error;
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

/**
 * The webhook job handler of every tracker: a change the connection maps (an issue closed as
 * completed, labelled, entering a state type…) moves its linked request to the mapped column, as
 * a team member moving it would (a `moved` event, so followers are told, webhooks sent, and
 * `shipped` recorded the first time it enters a done column). An issue linked to no request changes nothing.
 */
export function trackerWebhookJobHandler(ctx: Context, adapter: TrackerAdapter): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown): Promise<void> => {
    const { connectionId } = raw as { connectionId: string };
    const change = adapter.change(raw);
    const connection = await db.selectFrom("trackerConnections").selectAll().where("id", "=", connectionId).executeTakeFirst();
    if (connection === undefined) return;
    const link = await db
      .selectFrom("trackerIssueLinks as l")
      .innerJoin("featureRequests as fr", "fr.id", "l.featureRequestId")
      .innerJoin("apps as a", "a.id", "fr.appId")
      .select(["l.id", "l.featureRequestId", "fr.columnId", "fr.appId", "a.workspaceId"])
      .where("l.connectionId", "=", connectionId)
      .where("l.issueId", "=", change.issueId)
      .executeTakeFirst();
    if (link === undefined) return;
    const target = change.column(connection, await listColumns(db, link.appId));
    const moves = target !== undefined && target.id !== link.columnId;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("trackerIssueLinks").set({ issueState: change.issueState, updatedAt: isoNow(ctx.clock) }).where("id", "=", link.id).execute();
      if (moves) await updateRequest({ trx, clock: ctx.clock, dialect: ctx.db.dialect, workspaceId: link.workspaceId, actor: trackerActor(adapter) }, link.featureRequestId, { columnId: target.id });
    });
    if (moves) await ctx.cache.invalidateTag(appTag(link.appId));
  };
}

/**
 * The unlink job handler of every tracker: takes the demand block out of an issue that was
 * unlinked, leaving the rest of its body. A rate limit reschedules it; a refused credential
 * breaks the connection; an issue or target that is gone has nothing left to clean.
 */
export function trackerUnlinkJobHandler(ctx: Context, adapter: TrackerAdapter): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown): Promise<void> => {
    // Jobs queued before 0036 name a GitHub issue by its number.
    const { connectionId, issueId: id, issueNumber } = raw as { connectionId: string; issueId?: string; issueNumber?: number };
    const issueId = id ?? String(issueNumber);
    const connection = await db.selectFrom("trackerConnections").selectAll().where("id", "=", connectionId).executeTakeFirst();
    if (connection === undefined || connection.status !== "active") return;
    // Linked again meanwhile: the block is wanted.
    const relinked = await db.selectFrom("trackerIssueLinks").select("id").where("connectionId", "=", connectionId).where("issueId", "=", issueId).executeTakeFirst();
    if (relinked !== undefined) return;
    holdDemandWrite(connection.pausedUntil, null, ctx.clock.now().getTime(), adapter.service);
    const api = adapter.api(ctx, connection, (until) => pauseTrackerConnection(db, connectionId, until));
    try {
      const issue = await api.getIssue(issueId);
      const body = withoutDemandBlock(issue.body);
      if (body !== issue.body) await api.setIssueBody(issueId, body);
    } catch (error) {
      const failure = adapter.classify(error, ctx.clock.now().getTime());
      if ((await settleFailure(ctx, adapter, connectionId, failure)) || failure.kind === "not_found") return;
      throw error;
    }
  };
}
