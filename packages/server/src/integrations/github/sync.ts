import { sql } from "kysely";
import { isoNow } from "../../clock.js";
import { appTag, type Context } from "../../context.js";
import { updateRequest } from "../../feature-requests/triage.js";
import { enqueueJobs, RetryLater, type JobRow } from "../../jobs/queue.js";
import type { JobHandler } from "../../jobs/runner.js";
import { listColumns, type ColumnRow } from "../../roadmap/columns.js";
import { markBroken } from "./broken.js";
import { classify, githubClient } from "./client.js";
import { closedColumnOf, labelColumnOf, pauseConnection } from "./connections.js";
import { renderDemandBlock, withDemandBlock, withoutDemandBlock } from "../demand-block.js";
import { requestDemand } from "../demand.js";
import { holdDemandWrite, nextDemandWrite } from "../demand-schedule.js";
import { demandJob, GITHUB_DEMAND_JOB } from "./links.js";

/** The job kind that applies one GitHub webhook delivery. */
export const GITHUB_WEBHOOK_JOB = "github-webhook";
/** How the event log names a change GitHub made. */
export const GITHUB_ACTOR = "integration:github";

/**
 * Tick step: finds linked requests whose votes or comments changed since their issue's block
 * was written, and queues one write for each, due a minute after the previous write (at once
 * when there was none for a minute). A link with a write already queued, a broken connection or
 * one GitHub asked to pause waits: a vote storm costs one write per issue per minute.
 *
 * @example
 * ```ts
 * runner.step(githubDemandStep);
 * ```
 */
export async function githubDemandStep(ctx: Context): Promise<void> {
  const db = ctx.db.kysely;
  const now = isoNow(ctx.clock);
  const changed = await db
    .selectFrom("githubIssueLinks as l")
    .innerJoin("featureRequests as fr", "fr.id", "l.featureRequestId")
    .innerJoin("githubConnections as c", "c.id", "l.connectionId")
    .select(["l.id", "l.pushedAt"])
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
            .where("j.kind", "=", GITHUB_DEMAND_JOB),
        ),
      ),
    )
    .limit(200)
    .execute();
  if (changed.length === 0) return;
  const nowMs = ctx.clock.now().getTime();
  const jobs = changed.map((link) => demandJob(link.id, nextDemandWrite(link.pushedAt, nowMs)));
  await db.transaction().execute((trx) => enqueueJobs(trx, ctx.clock, jobs));
}

/**
 * The `github-demand` job handler: reads the issue, puts the request's current demand block in
 * its body (replacing the old block, or appending one, nothing else touched) and writes it back
 * when it changed. A rate-limit answer reschedules the job for when GitHub allows; a refused
 * token (401, or 403 for a missing permission), or a repository that is gone, breaks the connection (owners mailed) and ends the job;
 * an issue that is gone ends the link's sync.
 */
export function githubDemandJobHandler(ctx: Context): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown): Promise<void> => {
    const { linkId } = raw as { linkId: string };
    const row = await db
      .selectFrom("githubIssueLinks as l")
      .innerJoin("githubConnections as c", "c.id", "l.connectionId")
      .select(["l.id", "l.featureRequestId", "l.issueNumber", "l.pushedAt", "l.syncError", "c.id as connectionId", "c.owner", "c.repo", "c.token", "c.apiBaseUrl", "c.status", "c.pausedUntil"])
      .where("l.id", "=", linkId)
      .executeTakeFirst();
    if (row === undefined || row.status !== "active" || row.syncError !== null) return;
    holdDemandWrite(row.pausedUntil, row.pushedAt, ctx.clock.now().getTime(), "GitHub");
    const demand = await requestDemand(db, ctx.config, row.featureRequestId);
    if (demand === undefined) return;
    const github = githubClient(ctx, row, (until) => pauseConnection(db, row.connectionId, until));
    const issueNumber = Number(row.issueNumber);
    try {
      const issue = await github.getIssue(issueNumber);
      const body = withDemandBlock(issue.body, renderDemandBlock(demand));
      if (body !== issue.body) await github.setIssueBody(issueNumber, body);
      const now = isoNow(ctx.clock);
      await db
        .updateTable("githubIssueLinks")
        .set({ pushedVotes: demand.votes, pushedComments: demand.comments, pushedAt: now, issueTitle: issue.title, issueState: issue.state, updatedAt: now })
        .where("id", "=", row.id)
        .execute();
    } catch (error) {
      const failure = classify(error, ctx.clock.now().getTime());
      if (failure.kind === "rate_limited") throw new RetryLater(`GitHub rate limit`, failure.retryAfterMs);
      if (failure.kind === "unauthorized" || failure.kind === "forbidden") {
        await markBroken(ctx, row.connectionId, failure.kind);
        return;
      }
      if (failure.kind === "not_found") {
        const repository = await github.getRepository().then(
          () => "there" as const,
          (probe: unknown) => classify(probe, ctx.clock.now().getTime()),
        );
        if (repository === "there") {
          await db.updateTable("githubIssueLinks").set({ syncError: "issue_not_found", updatedAt: isoNow(ctx.clock) }).where("id", "=", row.id).execute();
          return;
        }
        if (repository.kind === "not_found") {
          await markBroken(ctx, row.connectionId, "repository_not_found");
          return;
        }
        if (repository.kind === "unauthorized" || repository.kind === "forbidden") {
          await markBroken(ctx, row.connectionId, repository.kind);
          return;
        }
        if (repository.kind === "rate_limited") throw new RetryLater("GitHub rate limit", repository.retryAfterMs);
      }
      throw error;
    }
  };
}

/** What a webhook job carries: the parts of an `issues` delivery Tidings acts on. */
export interface GithubWebhookJobPayload {
  connectionId: string;
  deliveryId: string;
  action: "closed" | "reopened" | "labeled";
  issueNumber: number;
  /** `completed`, `not_planned`, `duplicate`, `reopened` or null (closed events of older servers). */
  stateReason: string | null;
  issueState: string;
  /** The label added (`labeled`). */
  label: string | null;
}

function targetColumn(payload: GithubWebhookJobPayload, connection: { closedColumnId: string | null; reopenedColumnId: string | null; labelColumns: string }, columns: readonly ColumnRow[]): ColumnRow | undefined {
  switch (payload.action) {
    case "closed":
      // Closed as not planned or as a duplicate moves nothing.
      return payload.stateReason === "completed" || payload.stateReason === null ? closedColumnOf(connection, columns) : undefined;
    case "reopened":
      return columns.find((c) => c.id === connection.reopenedColumnId);
    case "labeled":
      return payload.label === null ? undefined : labelColumnOf(connection, payload.label, columns);
  }
}

/**
 * The `github-webhook` job handler: an issue closed as completed, reopened or labelled with a
 * mapped label moves its linked request to the mapped column, as a team member moving it would
 * (a `moved` event, so followers are told, webhooks sent, and `shipped` recorded the first time
 * it enters a done column). An issue linked to no request changes nothing.
 */
export function githubWebhookJobHandler(ctx: Context): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown, _job: JobRow): Promise<void> => {
    const payload = raw as GithubWebhookJobPayload;
    const link = await db
      .selectFrom("githubIssueLinks as l")
      .innerJoin("githubConnections as c", "c.id", "l.connectionId")
      .innerJoin("featureRequests as fr", "fr.id", "l.featureRequestId")
      .innerJoin("apps as a", "a.id", "fr.appId")
      .select(["l.id", "l.featureRequestId", "fr.columnId", "fr.appId", "a.workspaceId", "c.closedColumnId", "c.reopenedColumnId", "c.labelColumns"])
      .where("l.connectionId", "=", payload.connectionId)
      .where("l.issueNumber", "=", payload.issueNumber)
      .executeTakeFirst();
    if (link === undefined) return;
    const target = targetColumn(payload, link, await listColumns(db, link.appId));
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("githubIssueLinks").set({ issueState: payload.issueState, updatedAt: isoNow(ctx.clock) }).where("id", "=", link.id).execute();
      if (target === undefined || target.id === link.columnId) return;
      await updateRequest({ trx, clock: ctx.clock, dialect: ctx.db.dialect, workspaceId: link.workspaceId, actor: GITHUB_ACTOR }, link.featureRequestId, { columnId: target.id });
    });
    if (target !== undefined && target.id !== link.columnId) await ctx.cache.invalidateTag(appTag(link.appId));
  };
}

/**
 * The `github-unlink` job handler: takes the demand block out of an issue that was unlinked,
 * leaving the rest of its body. A rate limit reschedules it; a refused token breaks the
 * connection; an issue or repository that is gone has nothing left to clean.
 */
export function githubUnlinkJobHandler(ctx: Context): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown): Promise<void> => {
    const { connectionId, issueNumber } = raw as { connectionId: string; issueNumber: number };
    const connection = await db.selectFrom("githubConnections").selectAll().where("id", "=", connectionId).executeTakeFirst();
    if (connection === undefined || connection.status !== "active") return;
    // Linked again meanwhile: the block is wanted.
    const relinked = await db.selectFrom("githubIssueLinks").select("id").where("connectionId", "=", connectionId).where("issueNumber", "=", issueNumber).executeTakeFirst();
    if (relinked !== undefined) return;
    const nowMs = ctx.clock.now().getTime();
    if (connection.pausedUntil !== null && Date.parse(connection.pausedUntil) > nowMs) throw new RetryLater("GitHub asked to pause", Date.parse(connection.pausedUntil) - nowMs);
    const github = githubClient(ctx, connection, (until) => pauseConnection(db, connectionId, until));
    try {
      const issue = await github.getIssue(issueNumber);
      const body = withoutDemandBlock(issue.body);
      if (body !== issue.body) await github.setIssueBody(issueNumber, body);
    } catch (error) {
      const failure = classify(error, ctx.clock.now().getTime());
      if (failure.kind === "rate_limited") throw new RetryLater("GitHub rate limit", failure.retryAfterMs);
      if (failure.kind === "unauthorized" || failure.kind === "forbidden") {
        await markBroken(ctx, connectionId, failure.kind);
        return;
      }
      if (failure.kind === "not_found") return;
      throw error;
    }
  };
}
