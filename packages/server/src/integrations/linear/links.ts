import type { LinearIssueLink } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../../clock.js";
import type { Context } from "../../context.js";
import { isUniqueViolation } from "../../db/constraint-violations.js";
import type { Database, LinearIssueLinksTable } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { enqueueJobs, type NewJob } from "../../jobs/queue.js";
import { renderDemandBlock } from "../demand-block.js";
import { requestDemand } from "../demand.js";
import { markLinearBroken } from "./broken.js";
import { classifyLinear, linearClient, type LinearApi, type LinearIssue } from "./client.js";
import { findLinearConnection, pauseLinearConnection, type LinearConnectionRow } from "./connections.js";

export type LinearLinkRow = Selectable<LinearIssueLinksTable>;

/** The job kind that writes a request's demand into its Linear issue. */
export const LINEAR_DEMAND_JOB = "linear-demand";
/** Attempts of a demand write: rate-limit pauses spend them too. */
export const LINEAR_DEMAND_ATTEMPTS = 12;

/** The job that writes a link's demand block at `runAt`. */
export function linearDemandJob(linkId: string, runAt: Date): NewJob {
  return { kind: LINEAR_DEMAND_JOB, refId: linkId, dedupeKey: `${LINEAR_DEMAND_JOB}:${linkId}:${runAt.toISOString()}`, payload: { linkId }, runAt, maxAttempts: LINEAR_DEMAND_ATTEMPTS };
}

/** A link as the console shows it. */
export function toLinearIssueLink(row: LinearLinkRow): LinearIssueLink {
  return {
    featureRequestId: row.featureRequestId,
    connectionId: row.connectionId,
    issueId: row.issueId,
    issueIdentifier: row.issueIdentifier,
    issueUrl: row.issueUrl,
    issueTitle: row.issueTitle,
    issueState: row.issueState,
    lastSyncedAt: row.pushedAt,
    syncError: row.syncError,
    createdAt: row.createdAt,
  };
}

/** The request's link, or 404 `linear_link_not_found`. */
export async function findLinearLink(db: Kysely<Database>, featureRequestId: string): Promise<LinearLinkRow> {
  const row = await db.selectFrom("linearIssueLinks").selectAll().where("featureRequestId", "=", featureRequestId).executeTakeFirst();
  if (row === undefined) throw new ApiError("linear_link_not_found");
  return row;
}

/**
 * The identifier a reference names: `ENG-123` (any case) or the issue's URL
 * (`https://linear.app/acme/issue/ENG-123/a-slug`); 404 `linear_issue_not_found` otherwise.
 *
 * @example
 * ```ts
 * parseLinearIssueRef("https://linear.app/acme/issue/ENG-123/dark-mode"); // "ENG-123"
 * ```
 */
export function parseLinearIssueRef(ref: string): string {
  const text = ref.trim();
  let match = /^([A-Za-z][A-Za-z0-9]{0,9}-\d{1,9})$/.exec(text);
  if (match === null) match = /^https?:\/\/[^/]+\/[^/]+\/issue\/([A-Za-z][A-Za-z0-9]{0,9}-\d{1,9})(?:[/?#].*)?$/.exec(text);
  if (match === null) throw new ApiError("linear_issue_not_found", { message: `"${text.slice(0, 200)}" is not a Linear issue identifier or URL` });
  return match[1]!.toUpperCase();
}

/**
 * Turns a failed call made for a console request into the answer: a refused key breaks the
 * connection (owners mailed) and answers 409 `linear_connection_broken`; a missing issue is 404
 * `linear_issue_not_found`; a rate limit is 502 `linear_unavailable` with `Retry-After`.
 */
async function answerFailure(ctx: Context, connection: LinearConnectionRow, error: unknown): Promise<never> {
  const failure = classifyLinear(error, ctx.clock.now().getTime());
  switch (failure.kind) {
    case "unauthorized":
    case "forbidden":
      await markLinearBroken(ctx, connection.id, failure.kind);
      throw new ApiError("linear_connection_broken", { details: { reason: failure.kind } });
    case "not_found":
      throw new ApiError("linear_issue_not_found");
    case "rate_limited": {
      await pauseLinearConnection(ctx.db.kysely, connection.id, new Date(ctx.clock.now().getTime() + failure.retryAfterMs));
      const seconds = Math.ceil(failure.retryAfterMs / 1000);
      throw new ApiError("linear_unavailable", { message: `Linear is rate limiting this connection: retry in ${seconds} s`, details: { reason: "rate_limited", retryAfter: seconds }, headers: { "retry-after": String(seconds) } });
    }
    case "error":
      throw new ApiError("linear_unavailable", { details: { reason: "error", message: failure.message } });
  }
}

async function usableConnection(ctx: Context, appId: string): Promise<{ connection: LinearConnectionRow; linear: LinearApi }> {
  const connection = await findLinearConnection(ctx.db.kysely, appId);
  if (connection.status !== "active") throw new ApiError("linear_connection_broken", { details: { reason: connection.brokenReason } });
  return { connection, linear: linearClient(ctx, connection) };
}

async function refuseLinked(db: Kysely<Database>, featureRequestId: string): Promise<void> {
  const linked = await db.selectFrom("linearIssueLinks").select("id").where("featureRequestId", "=", featureRequestId).executeTakeFirst();
  if (linked !== undefined) throw new ApiError("linear_already_linked", { message: "This request is already linked to a Linear issue" });
}

async function insertLink(ctx: Context, row: LinearLinkRow, queueDemand: boolean): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    try {
      await trx.insertInto("linearIssueLinks").values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError("linear_already_linked");
      throw error;
    }
    if (queueDemand) await enqueueJobs(trx, ctx.clock, [linearDemandJob(row.id, ctx.clock.now())]);
  });
}

function newLink(clock: Clock, connection: LinearConnectionRow, featureRequestId: string, issue: LinearIssue): LinearLinkRow {
  const now = isoNow(clock);
  return {
    id: newId("lnl", clock.now()),
    connectionId: connection.id,
    appId: connection.appId,
    featureRequestId,
    issueId: issue.id,
    issueIdentifier: issue.identifier,
    issueUrl: issue.url,
    issueTitle: issue.title,
    issueState: null,
    pushedVotes: null,
    pushedComments: null,
    pushedAt: null,
    syncError: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Creates a Linear issue for a request in the connected team (`issueCreate`: the request's
 * title and description unless given, a link back and the demand block) and links them.
 *
 * @example
 * ```ts
 * const link = await createLinearIssueForRequest(ctx, { id: "fr_…", appId: "app_…" }, {});
 * ```
 */
export async function createLinearIssueForRequest(
  ctx: Context,
  request: { id: string; appId: string },
  input: { title?: string | undefined; description?: string | undefined },
): Promise<LinearIssueLink> {
  const { connection, linear } = await usableConnection(ctx, request.appId);
  await refuseLinked(ctx.db.kysely, request.id);
  const demand = await requestDemand(ctx.db.kysely, ctx.config, request.id);
  if (demand === undefined) throw new ApiError("feature_request_not_found");
  const text = (input.description ?? demand.description).trim();
  const description = [...(text === "" ? [] : [text]), `Requested on Tidings: ${demand.url}`, renderDemandBlock(demand)].join("\n\n");
  let issue: LinearIssue;
  try {
    issue = await linear.createIssue({ title: (input.title ?? demand.title).trim() || demand.title, description });
  } catch (error) {
    return answerFailure(ctx, connection, error);
  }
  const row = { ...newLink(ctx.clock, connection, request.id, issue), pushedVotes: demand.votes, pushedComments: demand.comments, pushedAt: isoNow(ctx.clock) };
  await insertLink(ctx, row, false);
  return toLinearIssueLink(row);
}

/** Links a request to an existing issue of the connected team (by identifier or URL, read from Linear) and queues the first write of its demand block. */
export async function linkLinearIssue(ctx: Context, request: { id: string; appId: string }, ref: string): Promise<LinearIssueLink> {
  const identifier = parseLinearIssueRef(ref);
  const { connection, linear } = await usableConnection(ctx, request.appId);
  await refuseLinked(ctx.db.kysely, request.id);
  let issue: LinearIssue;
  try {
    issue = await linear.getIssue(identifier);
  } catch (error) {
    return answerFailure(ctx, connection, error);
  }
  const row = newLink(ctx.clock, connection, request.id, issue);
  await insertLink(ctx, row, true);
  return toLinearIssueLink(row);
}

/** The job kind that takes the demand block out of an unlinked issue's description. */
export const LINEAR_UNLINK_JOB = "linear-unlink";

/**
 * Unlinks a request from its Linear issue (404 `linear_link_not_found` when it has none) and
 * queues the removal of the demand block from the issue; the rest is left as it is.
 */
export async function unlinkLinearIssue(trx: Kysely<Database>, clock: Clock, featureRequestId: string): Promise<void> {
  const link = await trx.selectFrom("linearIssueLinks").select(["id", "connectionId", "issueId", "pushedAt"]).where("featureRequestId", "=", featureRequestId).executeTakeFirst();
  if (link === undefined) throw new ApiError("linear_link_not_found");
  await trx.deleteFrom("linearIssueLinks").where("id", "=", link.id).execute();
  if (link.pushedAt === null) return;
  await enqueueJobs(trx, clock, [
    { kind: LINEAR_UNLINK_JOB, refId: link.connectionId, dedupeKey: `${LINEAR_UNLINK_JOB}:${link.id}`, payload: { connectionId: link.connectionId, issueId: link.issueId }, maxAttempts: LINEAR_DEMAND_ATTEMPTS },
  ]);
}
