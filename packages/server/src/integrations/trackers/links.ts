import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../../clock.js";
import type { Context } from "../../context.js";
import { isUniqueViolation } from "../../db/constraint-violations.js";
import type { Database } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { enqueueJobs } from "../../jobs/queue.js";
import { renderDemandBlock } from "../demand-block.js";
import { requestDemand } from "../demand.js";
import type { TrackerAdapter, TrackerConnectionRow, TrackerIssue, TrackerLinkRow } from "./adapter.js";
import { answerFailure, usableConnection } from "./console-calls.js";
import { DEMAND_ATTEMPTS, demandJob, trackerJobKinds } from "./job-kinds.js";

/** The request's link to the adapter's tracker, or 404 (`github_link_not_found`, …). */
export async function findTrackerLink(db: Kysely<Database>, adapter: TrackerAdapter, featureRequestId: string): Promise<TrackerLinkRow> {
  const row = await db.selectFrom("trackerIssueLinks").selectAll().where("featureRequestId", "=", featureRequestId).where("provider", "=", adapter.provider).executeTakeFirst();
  if (row === undefined) throw new ApiError(adapter.codes.linkNotFound);
  return row;
}

async function refuseLinked(db: Kysely<Database>, adapter: TrackerAdapter, featureRequestId: string): Promise<void> {
  const linked = await db.selectFrom("trackerIssueLinks").select("id").where("featureRequestId", "=", featureRequestId).where("provider", "=", adapter.provider).executeTakeFirst();
  if (linked !== undefined) throw new ApiError(adapter.codes.alreadyLinked, { message: `This request is already linked to a ${adapter.service} issue` });
}

async function insertLink(ctx: Context, adapter: TrackerAdapter, row: TrackerLinkRow, queueDemand: boolean): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    try {
      await trx.insertInto("trackerIssueLinks").values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(adapter.codes.alreadyLinked);
      throw error;
    }
    if (queueDemand) await enqueueJobs(trx, ctx.clock, [demandJob(adapter.provider, row.id, ctx.clock.now())]);
  });
}

function newLink(clock: Clock, adapter: TrackerAdapter, connection: TrackerConnectionRow, featureRequestId: string, issue: TrackerIssue): TrackerLinkRow {
  const now = isoNow(clock);
  return {
    id: newId(adapter.ids.link, clock.now()),
    provider: adapter.provider,
    connectionId: connection.id,
    appId: connection.appId,
    featureRequestId,
    issueId: issue.id,
    issueKey: issue.key,
    issueUrl: issue.url,
    issueTitle: issue.title,
    issueState: issue.state,
    pushedVotes: null,
    pushedComments: null,
    pushedAt: null,
    syncError: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** A link made, with the connection it belongs to. */
export interface MadeLink {
  link: TrackerLinkRow;
  connection: TrackerConnectionRow;
}

/**
 * Opens an issue for a request in its app's tracker (the request's title and description unless
 * given, a link back to its portal page, and the demand block) and links them.
 *
 * @example
 * ```ts
 * const { link } = await createIssueForRequest(ctx, githubAdapter, { id: "fr_…", appId: "app_…" }, {});
 * ```
 */
export async function createIssueForRequest(ctx: Context, adapter: TrackerAdapter, request: { id: string; appId: string }, input: { title?: string | undefined; body?: string | undefined }): Promise<MadeLink> {
  const { connection, api } = await usableConnection(ctx, adapter, request.appId);
  await refuseLinked(ctx.db.kysely, adapter, request.id);
  const demand = await requestDemand(ctx.db.kysely, ctx.config, request.id);
  if (demand === undefined) throw new ApiError("feature_request_not_found");
  const text = (input.body ?? demand.description).trim();
  const body = [...(text === "" ? [] : [text]), `Requested on Tidings: ${demand.url}`, renderDemandBlock(demand)].join("\n\n");
  let issue: TrackerIssue;
  try {
    issue = await api.createIssue({ title: (input.title ?? demand.title).trim() || demand.title, body });
  } catch (error) {
    return answerFailure(ctx, adapter, connection, api, error, false);
  }
  const link = { ...newLink(ctx.clock, adapter, connection, request.id, issue), pushedVotes: demand.votes, pushedComments: demand.comments, pushedAt: isoNow(ctx.clock) };
  await insertLink(ctx, adapter, link, false);
  return { link, connection };
}

/** Links a request to an existing issue of its app's tracker (by a reference the adapter reads, checked with the tracker) and queues the first write of its demand block. */
export async function linkIssue(ctx: Context, adapter: TrackerAdapter, request: { id: string; appId: string }, ref: number | string): Promise<MadeLink> {
  const { connection, api } = await usableConnection(ctx, adapter, request.appId);
  const issueId = adapter.issueIdOf(ref, connection);
  await refuseLinked(ctx.db.kysely, adapter, request.id);
  let issue: TrackerIssue;
  try {
    issue = await api.getIssue(issueId);
  } catch (error) {
    return answerFailure(ctx, adapter, connection, api, error, true);
  }
  if (issue.unlinkable !== null) throw new ApiError(adapter.codes.issueNotFound, { message: issue.unlinkable });
  const link = newLink(ctx.clock, adapter, connection, request.id, issue);
  await insertLink(ctx, adapter, link, true);
  return { link, connection };
}

/**
 * Unlinks a request from its issue (404 `github_link_not_found`, … when it has none) and queues
 * the removal of the demand block from the issue; the rest of the issue is left as it is.
 */
export async function unlinkIssue(trx: Kysely<Database>, clock: Clock, adapter: TrackerAdapter, featureRequestId: string): Promise<void> {
  const link = await findTrackerLink(trx, adapter, featureRequestId);
  await trx.deleteFrom("trackerIssueLinks").where("id", "=", link.id).execute();
  // A block was written only once the link was synced.
  if (link.pushedAt === null) return;
  const kind = trackerJobKinds(adapter.provider).unlink;
  await enqueueJobs(trx, clock, [{ kind, refId: link.connectionId, dedupeKey: `${kind}:${link.id}`, payload: { connectionId: link.connectionId, issueId: link.issueId }, maxAttempts: DEMAND_ATTEMPTS }]);
}
