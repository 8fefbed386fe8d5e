import { sql } from "kysely";
import { isoNow } from "../../clock.js";
import { appTag, type Context } from "../../context.js";
import { updateRequest } from "../../feature-requests/triage.js";
import { enqueueJobs, RetryLater } from "../../jobs/queue.js";
import type { JobHandler } from "../../jobs/runner.js";
import { listColumns } from "../../roadmap/columns.js";
import { renderDemandBlock, withDemandBlock, withoutDemandBlock } from "../demand-block.js";
import { holdDemandWrite, nextDemandWrite } from "../demand-schedule.js";
import { requestDemand } from "../demand.js";
import { markLinearBroken } from "./broken.js";
import { classifyLinear, linearClient, type LinearFailure } from "./client.js";
import { pauseLinearConnection, stateColumnOf } from "./connections.js";
import { LINEAR_DEMAND_JOB, linearDemandJob } from "./links.js";

/** The job kind that applies one Linear webhook delivery. */
export const LINEAR_WEBHOOK_JOB = "linear-webhook";
/** How the event log names a change Linear made. */
export const LINEAR_ACTOR = "integration:linear";

/**
 * Tick step: queues one demand write for each linked request whose votes or comments changed
 * since its issue's block was written, due a minute after the previous write. A link with a
 * write queued, a broken connection or one Linear asked to pause waits: one write per issue per minute.
 *
 * @example
 * ```ts
 * runner.step(linearDemandStep);
 * ```
 */
export async function linearDemandStep(ctx: Context): Promise<void> {
  const db = ctx.db.kysely;
  const now = isoNow(ctx.clock);
  const changed = await db
    .selectFrom("linearIssueLinks as l")
    .innerJoin("featureRequests as fr", "fr.id", "l.featureRequestId")
    .innerJoin("linearConnections as c", "c.id", "l.connectionId")
    .select(["l.id", "l.pushedAt"])
    .where("c.status", "=", "active")
    .where((eb) => eb.or([eb("c.pausedUntil", "is", null), eb("c.pausedUntil", "<=", now)]))
    .where("l.syncError", "is", null)
    .where((eb) => eb.or([eb("l.pushedVotes", "is", null), eb("l.pushedVotes", "<>", eb.ref("fr.voteCount")), eb("l.pushedComments", "<>", eb.ref("fr.commentCount"))]))
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("jobs as j").select(sql`1`.as("one")).whereRef("j.refId", "=", "l.id").where("j.status", "in", ["pending", "running"]).where("j.kind", "=", LINEAR_DEMAND_JOB))),
    )
    .limit(200)
    .execute();
  if (changed.length === 0) return;
  const nowMs = ctx.clock.now().getTime();
  await db.transaction().execute((trx) => enqueueJobs(trx, ctx.clock, changed.map((link) => linearDemandJob(link.id, nextDemandWrite(link.pushedAt, nowMs)))));
}

/** What a failed outbound call does to its job: wait for the rate limit, or break the connection. Answers whether it was handled. */
async function settleFailure(ctx: Context, connectionId: string, failure: LinearFailure): Promise<boolean> {
  if (failure.kind === "rate_limited") {
    await pauseLinearConnection(ctx.db.kysely, connectionId, new Date(ctx.clock.now().getTime() + failure.retryAfterMs));
    throw new RetryLater("Linear rate limit", failure.retryAfterMs);
  }
  if (failure.kind === "unauthorized" || failure.kind === "forbidden") {
    await markLinearBroken(ctx, connectionId, failure.kind);
    return true;
  }
  return false;
}

/**
 * The `linear-demand` job handler: reads the issue's description, puts the request's current
 * demand block in it (nothing else touched) and writes it back with `issueUpdate` when it
 * changed. A rate limit reschedules the job; a refused key breaks the connection (owners
 * mailed); an issue that is gone ends the link's sync.
 */
export function linearDemandJobHandler(ctx: Context): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown): Promise<void> => {
    const { linkId } = raw as { linkId: string };
    const row = await db
      .selectFrom("linearIssueLinks as l")
      .innerJoin("linearConnections as c", "c.id", "l.connectionId")
      .select(["l.id", "l.featureRequestId", "l.issueId", "l.pushedAt", "l.syncError", "c.id as connectionId", "c.teamId", "c.apiKey", "c.apiUrl", "c.status", "c.pausedUntil"])
      .where("l.id", "=", linkId)
      .executeTakeFirst();
    if (row === undefined || row.status !== "active" || row.syncError !== null) return;
    holdDemandWrite(row.pausedUntil, row.pushedAt, ctx.clock.now().getTime(), "Linear");
    const demand = await requestDemand(db, ctx.config, row.featureRequestId);
    if (demand === undefined) return;
    const linear = linearClient(ctx, row);
    try {
      const issue = await linear.getIssue(row.issueId);
      const description = withDemandBlock(issue.description, renderDemandBlock(demand));
      if (description !== issue.description) await linear.setDescription(row.issueId, description);
      const now = isoNow(ctx.clock);
      await db
        .updateTable("linearIssueLinks")
        .set({ pushedVotes: demand.votes, pushedComments: demand.comments, pushedAt: now, issueTitle: issue.title, updatedAt: now })
        .where("id", "=", row.id)
        .execute();
    } catch (error) {
      const failure = classifyLinear(error, ctx.clock.now().getTime());
      if (await settleFailure(ctx, row.connectionId, failure)) return;
      if (failure.kind === "not_found") {
        await db.updateTable("linearIssueLinks").set({ syncError: "issue_not_found", updatedAt: isoNow(ctx.clock) }).where("id", "=", row.id).execute();
        return;
      }
      throw error;
    }
  };
}

/** What a webhook job carries: the parts of an Issue `update` delivery Tidings acts on. */
export interface LinearWebhookJobPayload {
  connectionId: string;
  deliveryId: string;
  issueId: string;
  /** The new workflow state's type (`started`, `completed`, `canceled`, …). */
  stateType: string;
}

/**
 * The `linear-webhook` job handler: an issue entering a state whose type the connection maps
 * moves its linked request to that column, as a team member moving it would (a `moved` event,
 * so followers are told and webhooks sent). An issue linked to no request changes nothing.
 */
export function linearWebhookJobHandler(ctx: Context): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown): Promise<void> => {
    const payload = raw as LinearWebhookJobPayload;
    const link = await db
      .selectFrom("linearIssueLinks as l")
      .innerJoin("linearConnections as c", "c.id", "l.connectionId")
      .innerJoin("featureRequests as fr", "fr.id", "l.featureRequestId")
      .innerJoin("apps as a", "a.id", "fr.appId")
      .select(["l.id", "l.featureRequestId", "fr.columnId", "fr.appId", "a.workspaceId", "c.completedColumnId", "c.startedColumnId", "c.canceledColumnId"])
      .where("l.connectionId", "=", payload.connectionId)
      .where("l.issueId", "=", payload.issueId)
      .executeTakeFirst();
    if (link === undefined) return;
    const target = stateColumnOf(link, payload.stateType, await listColumns(db, link.appId));
    const moves = target !== undefined && target.id !== link.columnId;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("linearIssueLinks").set({ issueState: payload.stateType, updatedAt: isoNow(ctx.clock) }).where("id", "=", link.id).execute();
      if (moves) await updateRequest({ trx, clock: ctx.clock, dialect: ctx.db.dialect, workspaceId: link.workspaceId, actor: LINEAR_ACTOR }, link.featureRequestId, { columnId: target.id });
    });
    if (moves) await ctx.cache.invalidateTag(appTag(link.appId));
  };
}

/**
 * The `linear-unlink` job handler: takes the demand block out of an unlinked issue's
 * description, leaving the rest. A rate limit reschedules it; a refused key breaks the
 * connection; an issue that is gone has nothing left to clean.
 */
export function linearUnlinkJobHandler(ctx: Context): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown): Promise<void> => {
    const { connectionId, issueId } = raw as { connectionId: string; issueId: string };
    const connection = await db.selectFrom("linearConnections").selectAll().where("id", "=", connectionId).executeTakeFirst();
    if (connection === undefined || connection.status !== "active") return;
    const relinked = await db.selectFrom("linearIssueLinks").select("id").where("connectionId", "=", connectionId).where("issueId", "=", issueId).executeTakeFirst();
    if (relinked !== undefined) return;
    holdDemandWrite(connection.pausedUntil, null, ctx.clock.now().getTime(), "Linear");
    const linear = linearClient(ctx, connection);
    try {
      const issue = await linear.getIssue(issueId);
      const description = withoutDemandBlock(issue.description);
      if (description !== issue.description) await linear.setDescription(issueId, description);
    } catch (error) {
      const failure = classifyLinear(error, ctx.clock.now().getTime());
      if ((await settleFailure(ctx, connectionId, failure)) || failure.kind === "not_found") return;
      throw error;
    }
  };
}
