import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../../clock.js";
import type { Context } from "../../context.js";
import { isUniqueViolation } from "../../db/constraint-violations.js";
import type { Database, TrackerProvider } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { enqueueJobs, type NewJob } from "../../jobs/queue.js";
import { renderDemandBlock } from "../demand-block.js";
import { requestDemand } from "../demand.js";
import type { TrackerAdapter, TrackerApi, TrackerConnectionRow, TrackerIssue, TrackerLinkRow } from "./adapter.js";
import { markBroken } from "./broken.js";
import { findTrackerConnection, pauseTrackerConnection } from "./connections.js";

/** Attempts of a demand write or block removal: rate-limit pauses spend them too. */
export const DEMAND_ATTEMPTS = 12;

/** The job kinds of a tracker: writing a link's demand block, applying a webhook delivery, taking the block out of an unlinked issue. */
export function trackerJobKinds(provider: TrackerProvider): { demand: string; webhook: string; unlink: string } {
  return { demand: `${provider}-demand`, webhook: `${provider}-webhook`, unlink: `${provider}-unlink` };
}

/** The job that writes a link's demand block at `runAt`. */
export function demandJob(provider: TrackerProvider, linkId: string, runAt: Date): NewJob {
  const kind = trackerJobKinds(provider).demand;
  return { kind, refId: linkId, dedupeKey: `${kind}:${linkId}:${runAt.toISOString()}`, payload: { linkId }, runAt, maxAttempts: DEMAND_ATTEMPTS };
}

/** The request's link to the adapter's tracker, or 404 (`github_link_not_found`, …). */
export async function findTrackerLink(db: Kysely<Database>, adapter: TrackerAdapter, featureRequestId: string): Promise<TrackerLinkRow> {
  const row = await db.selectFrom("trackerIssueLinks").selectAll().where("featureRequestId", "=", featureRequestId).where("provider", "=", adapter.provider).executeTakeFirst();
  if (row === undefined) throw new ApiError(adapter.codes.linkNotFound);
  return row;
}

function rateLimited(adapter: TrackerAdapter, retryAfterMs: number): ApiError {
  const seconds = Math.ceil(retryAfterMs / 1000);
  return new ApiError(adapter.codes.unavailable, {
    message: `${adapter.service} is rate limiting this connection: retry in ${seconds} s`,
    details: { reason: "rate_limited", retryAfter: seconds },
    headers: { "retry-after": String(seconds) },
  });
}

/**
 * Turns a failed call made for a console request into the answer: a refused credential, one
 * without the permission, or a target that is gone breaks the connection, mails the owners and
 * answers 409 (`github_connection_broken`, …); a missing issue is 404; a rate limit is 502 with
 * `Retry-After` (and pauses the connection); anything else 502.
 */
async function answerFailure(ctx: Context, adapter: TrackerAdapter, connection: TrackerConnectionRow, api: TrackerApi, error: unknown, issueCall: boolean): Promise<never> {
  const failure = adapter.classify(error, ctx.clock.now().getTime());
  const broken = async (reason: string): Promise<never> => {
    await markBroken(ctx, adapter, connection.id, reason);
    throw new ApiError(adapter.codes.broken, { details: { reason } });
  };
  switch (failure.kind) {
    case "unauthorized":
    case "forbidden":
      return broken(failure.kind);
    case "gone":
      return broken(failure.reason);
    case "not_found": {
      if (adapter.targetGoneReason === undefined) throw new ApiError(adapter.codes.issueNotFound);
      // A 404 on an issue means a missing issue only when the target is still there.
      const probe = issueCall && api.probeTarget !== undefined ? await api.probeTarget() : ({ kind: "not_found" } as const);
      if (probe?.kind !== "not_found") throw new ApiError(adapter.codes.issueNotFound);
      return broken(adapter.targetGoneReason);
    }
    case "rate_limited":
      await pauseTrackerConnection(ctx.db.kysely, connection.id, new Date(ctx.clock.now().getTime() + failure.retryAfterMs));
      throw rateLimited(adapter, failure.retryAfterMs);
    case "error":
      throw new ApiError(adapter.codes.unavailable, {
        ...(failure.status === undefined ? {} : { message: `${adapter.service} answered ${failure.status}` }),
        details: { reason: "error", ...(failure.status === undefined ? {} : { status: failure.status }), message: failure.message },
      });
    case "unreachable":
      throw new ApiError(adapter.codes.unavailable, { details: { reason: "unreachable", message: failure.message } });
  }
}

/** The connection of the request's app, active and not paused (else 409, or 502 with `Retry-After`), with a client. */
async function usableConnection(ctx: Context, adapter: TrackerAdapter, appId: string): Promise<{ connection: TrackerConnectionRow; api: TrackerApi }> {
  const connection = await findTrackerConnection(ctx.db.kysely, adapter, appId);
  if (connection.status !== "active") throw new ApiError(adapter.codes.broken, { details: { reason: connection.brokenReason } });
  const now = ctx.clock.now().getTime();
  if (connection.pausedUntil !== null && Date.parse(connection.pausedUntil) > now) throw rateLimited(adapter, Date.parse(connection.pausedUntil) - now);
  return { connection, api: adapter.api(ctx, connection, (until) => pauseTrackerConnection(ctx.db.kysely, connection.id, until)) };
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
