import type { GithubIssueLink } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../../clock.js";
import type { Context } from "../../context.js";
import { isUniqueViolation } from "../../db/constraint-violations.js";
import type { Database, GithubIssueLinksTable } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { enqueueJobs, type NewJob } from "../../jobs/queue.js";
import { markBroken } from "./broken.js";
import { classify, githubClient, type GithubClient, type GithubIssue } from "./client.js";
import { findConnection, pauseConnection, requireActive, type GithubConnectionRow } from "./connections.js";
import { renderDemandBlock } from "../demand-block.js";
import { requestDemand } from "../demand.js";

export type GithubLinkRow = Selectable<GithubIssueLinksTable>;

/** The job kind that writes a request's demand into its issue. */
export const GITHUB_DEMAND_JOB = "github-demand";
/** Attempts of a demand write: rate-limit pauses spend them too. */
export const GITHUB_DEMAND_ATTEMPTS = 12;

/** The job that writes a link's demand block at `runAt`. */
export function demandJob(linkId: string, runAt: Date): NewJob {
  return { kind: GITHUB_DEMAND_JOB, refId: linkId, dedupeKey: `${GITHUB_DEMAND_JOB}:${linkId}:${runAt.toISOString()}`, payload: { linkId }, runAt, maxAttempts: GITHUB_DEMAND_ATTEMPTS };
}

/** A link as the console shows it. */
export function toGithubIssueLink(row: GithubLinkRow, connection: Pick<GithubConnectionRow, "owner" | "repo">): GithubIssueLink {
  return {
    featureRequestId: row.featureRequestId,
    connectionId: row.connectionId,
    repository: `${connection.owner}/${connection.repo}`,
    issueNumber: Number(row.issueNumber),
    issueUrl: row.issueUrl,
    issueTitle: row.issueTitle,
    issueState: row.issueState,
    lastSyncedAt: row.pushedAt,
    syncError: row.syncError,
    createdAt: row.createdAt,
  };
}

/** The request's link, or 404 `github_link_not_found`. */
export async function findLink(db: Kysely<Database>, featureRequestId: string): Promise<GithubLinkRow> {
  const row = await db.selectFrom("githubIssueLinks").selectAll().where("featureRequestId", "=", featureRequestId).executeTakeFirst();
  if (row === undefined) throw new ApiError("github_link_not_found");
  return row;
}

/**
 * The issue number a reference names: `42`, `#42`, `owner/repo#42` or the issue's URL, which
 * must be of the connected repository (compared case-insensitively, as GitHub does); 404
 * `github_issue_not_found` otherwise.
 */
export function parseIssueRef(ref: number | string, connection: Pick<GithubConnectionRow, "owner" | "repo">): number {
  if (typeof ref === "number") return ref;
  const text = ref.trim();
  const same = (owner: string, repo: string) => owner.toLowerCase() === connection.owner.toLowerCase() && repo.toLowerCase() === connection.repo.toLowerCase();
  let match = /^#?(\d{1,15})$/.exec(text);
  if (match !== null) return Number(match[1]);
  match = /^([\w.-]+)\/([\w.-]+)#(\d{1,15})$/.exec(text);
  if (match !== null && same(match[1]!, match[2]!)) return Number(match[3]);
  match = /^https?:\/\/[^/]+\/([\w.-]+)\/([\w.-]+)\/issues\/(\d{1,15})\/?(?:[?#].*)?$/.exec(text);
  if (match !== null && same(match[1]!, match[2]!)) return Number(match[3]);
  throw new ApiError("github_issue_not_found", { message: `"${text.slice(0, 200)}" is not an issue of ${connection.owner}/${connection.repo}` });
}

/**
 * Turns a failed call made for a console request into the answer: a revoked token, one without
 * the permission, or a repository that is gone breaks the connection, mails the owners and answers 409
 * `github_connection_broken`; a missing issue is 404 `github_issue_not_found`; a rate limit
 * is 502 `github_unavailable` with `Retry-After`; anything else 502 `github_unavailable`.
 */
async function answerFailure(ctx: Context, connection: GithubConnectionRow, github: GithubClient, error: unknown, issueCall: boolean): Promise<never> {
  const failure = classify(error, ctx.clock.now().getTime());
  switch (failure.kind) {
    case "unauthorized":
    case "forbidden":
      await markBroken(ctx, connection.id, failure.kind);
      throw new ApiError("github_connection_broken", { details: { reason: failure.kind } });
    case "not_found": {
      // A 404 on an issue means a missing issue only when the repository is still there.
      const repositoryGone = !issueCall || (await github.getRepository().then(() => false, (probe: unknown) => classify(probe, ctx.clock.now().getTime()).kind === "not_found"));
      if (!repositoryGone) throw new ApiError("github_issue_not_found");
      await markBroken(ctx, connection.id, "repository_not_found");
      throw new ApiError("github_connection_broken", { details: { reason: "repository_not_found" } });
    }
    case "rate_limited": {
      const seconds = Math.ceil(failure.retryAfterMs / 1000);
      throw new ApiError("github_unavailable", { message: `GitHub is rate limiting this connection: retry in ${seconds} s`, details: { reason: "rate_limited", retryAfter: seconds }, headers: { "retry-after": String(seconds) } });
    }
    case "error":
      throw new ApiError("github_unavailable", { message: `GitHub answered ${failure.status}`, details: { reason: "error", status: failure.status, message: failure.message } });
    case "unreachable":
      throw new ApiError("github_unavailable", { details: { reason: "unreachable", message: failure.message } });
  }
}

/** The connection of the request's app, active and not paused (else 409, or 502 with `Retry-After`), with a client. */
async function usableConnection(ctx: Context, appId: string): Promise<{ connection: GithubConnectionRow; github: GithubClient }> {
  const connection = await findConnection(ctx.db.kysely, appId);
  requireActive(connection);
  const now = ctx.clock.now().getTime();
  if (connection.pausedUntil !== null && Date.parse(connection.pausedUntil) > now) {
    const seconds = Math.ceil((Date.parse(connection.pausedUntil) - now) / 1000);
    throw new ApiError("github_unavailable", { message: `GitHub is rate limiting this connection: retry in ${seconds} s`, details: { reason: "rate_limited", retryAfter: seconds }, headers: { "retry-after": String(seconds) } });
  }
  return { connection, github: githubClient(ctx, connection, (until) => pauseConnection(ctx.db.kysely, connection.id, until)) };
}

async function refuseLinked(db: Kysely<Database>, featureRequestId: string): Promise<void> {
  const linked = await db.selectFrom("githubIssueLinks").select("id").where("featureRequestId", "=", featureRequestId).executeTakeFirst();
  if (linked !== undefined) throw new ApiError("github_already_linked", { message: "This request is already linked to a GitHub issue" });
}

async function insertLink(
  ctx: Context,
  row: GithubLinkRow,
  queueDemand: boolean,
): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    try {
      await trx.insertInto("githubIssueLinks").values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError("github_already_linked");
      throw error;
    }
    if (queueDemand) await enqueueJobs(trx, ctx.clock, [demandJob(row.id, ctx.clock.now())]);
  });
}

function newLink(clock: Clock, connection: GithubConnectionRow, featureRequestId: string, issue: GithubIssue): GithubLinkRow {
  const now = isoNow(clock);
  return {
    id: newId("ghl", clock.now()),
    connectionId: connection.id,
    appId: connection.appId,
    featureRequestId,
    issueNumber: issue.number,
    issueUrl: issue.htmlUrl,
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

/**
 * Opens an issue for a request in its app's repository (the request's title and description
 * unless given, a link back to its portal page, and the demand block) and links them.
 *
 * @example
 * ```ts
 * const link = await createIssueForRequest(ctx, { id: "fr_…", appId: "app_…" }, {});
 * ```
 */
export async function createIssueForRequest(
  ctx: Context,
  request: { id: string; appId: string },
  input: { title?: string | undefined; body?: string | undefined },
): Promise<GithubIssueLink> {
  const { connection, github } = await usableConnection(ctx, request.appId);
  await refuseLinked(ctx.db.kysely, request.id);
  const demand = await requestDemand(ctx.db.kysely, ctx.config, request.id);
  if (demand === undefined) throw new ApiError("feature_request_not_found");
  const text = (input.body ?? demand.description).trim();
  const body = [...(text === "" ? [] : [text]), `Requested on Tidings: ${demand.url}`, renderDemandBlock(demand)].join("\n\n");
  let issue: GithubIssue;
  try {
    issue = await github.createIssue({ title: (input.title ?? demand.title).trim() || demand.title, body });
  } catch (error) {
    return answerFailure(ctx, connection, github, error, false);
  }
  const row = { ...newLink(ctx.clock, connection, request.id, issue), pushedVotes: demand.votes, pushedComments: demand.comments, pushedAt: isoNow(ctx.clock) };
  await insertLink(ctx, row, false);
  return toGithubIssueLink(row, connection);
}

/**
 * Links a request to an existing issue of its app's repository (by number or URL, checked with
 * GitHub) and queues the first write of its demand block.
 */
export async function linkIssue(ctx: Context, request: { id: string; appId: string }, ref: number | string): Promise<GithubIssueLink> {
  const { connection, github } = await usableConnection(ctx, request.appId);
  const issueNumber = parseIssueRef(ref, connection);
  await refuseLinked(ctx.db.kysely, request.id);
  let issue: GithubIssue;
  try {
    issue = await github.getIssue(issueNumber);
  } catch (error) {
    return answerFailure(ctx, connection, github, error, true);
  }
  if (issue.isPullRequest) throw new ApiError("github_issue_not_found", { message: `#${issueNumber} is a pull request, not an issue` });
  const row = newLink(ctx.clock, connection, request.id, issue);
  await insertLink(ctx, row, true);
  return toGithubIssueLink(row, connection);
}

/** The job kind that takes the demand block out of an unlinked issue. */
export const GITHUB_UNLINK_JOB = "github-unlink";

/**
 * Unlinks a request from its issue (404 `github_link_not_found` when it has none) and queues the
 * removal of the demand block from the issue; the rest of the issue is left as it is.
 */
export async function unlinkIssue(trx: Kysely<Database>, clock: Clock, featureRequestId: string): Promise<void> {
  const link = await trx.selectFrom("githubIssueLinks").select(["id", "connectionId", "issueNumber", "pushedAt"]).where("featureRequestId", "=", featureRequestId).executeTakeFirst();
  if (link === undefined) throw new ApiError("github_link_not_found");
  await trx.deleteFrom("githubIssueLinks").where("id", "=", link.id).execute();
  // A block was written only once the link was synced.
  if (link.pushedAt === null) return;
  await enqueueJobs(trx, clock, [
    { kind: GITHUB_UNLINK_JOB, refId: link.connectionId, dedupeKey: `${GITHUB_UNLINK_JOB}:${link.id}`, payload: { connectionId: link.connectionId, issueNumber: Number(link.issueNumber) }, maxAttempts: GITHUB_DEMAND_ATTEMPTS },
  ]);
}
