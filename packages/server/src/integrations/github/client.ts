import { GITHUB_API_BASE_URL } from "@tidings/protocol";
import { Octokit } from "@octokit/rest";
import type { Context } from "../../context.js";
import { checkWebhookUrl, RefusedAddressError } from "../../webhooks/address-guard.js";

/** How long GitHub has to answer one call. */
export const GITHUB_TIMEOUT_MS = 10_000;
/** The wait GitHub asks for after a secondary rate limit that names no time: at least a minute. */
export const SECONDARY_RATE_LIMIT_WAIT_MS = 60_000;

/** What a connection needs to call GitHub: its repository, and a token or a way to get one (a GitHub App installation's). */
export interface GithubTarget {
  owner: string;
  repo: string;
  token: string | (() => Promise<string>);
  apiBaseUrl: string;
}

/** An issue as Tidings reads it. */
export interface GithubIssue {
  number: number;
  title: string;
  body: string;
  state: string;
  htmlUrl: string;
  isPullRequest: boolean;
}

/** Why a call failed, as the caller acts on it. */
export type GithubFailure =
  /** Primary or secondary rate limit: call again no sooner than `retryAfterMs` from now. */
  | { kind: "rate_limited"; retryAfterMs: number }
  /** 401: the token is revoked, expired or wrong. */
  | { kind: "unauthorized" }
  /** 403 that is no rate limit: the token lacks a permission. */
  | { kind: "forbidden"; message: string }
  /** 404: the issue or the repository does not exist for this token. */
  | { kind: "not_found" }
  /** The GitHub App installation can no longer reach the repository: `reason` says why. */
  | { kind: "gone"; reason: string }
  /** Any other answer (a 422, a 5xx). */
  | { kind: "error"; status: number; message: string }
  /** No answer: refused address, network error or timeout. */
  | { kind: "unreachable"; message: string };

/** A failed GitHub call. */
export class GithubCallError extends Error {
  constructor(readonly failure: GithubFailure) {
    super(describe(failure));
    this.name = "GithubCallError";
  }
}

function describe(failure: GithubFailure): string {
  switch (failure.kind) {
    case "rate_limited":
      return `GitHub rate limit: retry in ${Math.ceil(failure.retryAfterMs / 1000)} s`;
    case "unauthorized":
      return "GitHub refused the token (401)";
    case "forbidden":
      return `GitHub refused the call (403): ${failure.message}`;
    case "not_found":
      return "GitHub answered 404";
    case "gone":
      return `GitHub App installation unusable: ${failure.reason}`;
    case "error":
      return `GitHub answered ${failure.status}: ${failure.message}`;
    case "unreachable":
      return `GitHub could not be reached: ${failure.message}`;
  }
}

type Headers = Record<string, string | number | undefined>;

function header(headers: Headers | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return value === undefined ? undefined : String(value);
}

/**
 * How long GitHub asks us to wait, from an answer's headers (its documented order): `retry-after`
 * seconds, else the primary limit's `x-ratelimit-reset` when `x-ratelimit-remaining` is 0.
 * Undefined when the headers ask for no wait.
 *
 * @example
 * ```ts
 * rateLimitWaitMs({ "retry-after": "30" }, Date.now()); // 30_000
 * ```
 */
export function rateLimitWaitMs(headers: Headers | undefined, nowMs: number): number | undefined {
  const retryAfter = Number(header(headers, "retry-after"));
  if (header(headers, "retry-after") !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  if (header(headers, "x-ratelimit-remaining") === "0") {
    const reset = Number(header(headers, "x-ratelimit-reset"));
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - nowMs);
  }
  return undefined;
}

/** Turns what Octokit threw into a {@link GithubFailure}. */
export function classify(error: unknown, nowMs: number): GithubFailure {
  if (error instanceof GithubCallError) return error.failure;
  if (error instanceof RefusedAddressError) return { kind: "unreachable", message: error.reason };
  const status = typeof (error as { status?: unknown }).status === "number" ? (error as { status: number }).status : undefined;
  const message = error instanceof Error ? error.message : String(error);
  // Octokit's RequestError carries status 500 for a request that never got an answer.
  const response = (error as { response?: { headers?: Headers } }).response;
  if (status === undefined || response === undefined) return { kind: "unreachable", message };
  if (status === 401) return { kind: "unauthorized" };
  if (status === 404) return { kind: "not_found" };
  if (status === 403 || status === 429) {
    const wait = rateLimitWaitMs(response.headers, nowMs);
    if (wait !== undefined) return { kind: "rate_limited", retryAfterMs: wait };
    if (status === 429 || /rate limit/i.test(message)) return { kind: "rate_limited", retryAfterMs: SECONDARY_RATE_LIMIT_WAIT_MS };
    return { kind: "forbidden", message: message.slice(0, 300) };
  }
  return { kind: "error", status, message: message.slice(0, 300) };
}

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** An Octokit for one API root, with a token or none, each call given {@link GITHUB_TIMEOUT_MS}. */
export function githubOctokit(apiBaseUrl: string, token: string | undefined): Octokit {
  return new Octokit({
    ...(token === undefined ? {} : { auth: token }),
    baseUrl: apiBaseUrl.replace(/\/+$/, ""),
    userAgent: "Tidings",
    log: silent,
    request: { signal: AbortSignal.timeout(GITHUB_TIMEOUT_MS) },
  });
}

/**
 * The calls Tidings makes to one repository, through Octokit. Every failure is thrown as a
 * {@link GithubCallError}; `onPause` hears when GitHub asks for a pause (a rate-limit answer, or a
 * success that spent the last call of the hour) with the time calls may resume. A base URL other
 * than GitHub's own is checked like a webhook URL before each call (public addresses, or what
 * `TIDINGS_WEBHOOK_ALLOW` names).
 *
 * @example
 * ```ts
 * const github = githubClient(ctx, connection, (until) => pauseConnection(ctx, connection.id, until));
 * const issue = await github.getIssue(42);
 * ```
 */
export function githubClient(ctx: Context, target: GithubTarget, onPause: (until: Date) => Promise<void> = async () => undefined) {
  let octokit: Octokit | undefined;
  const client = async (): Promise<Octokit> =>
    (octokit ??= githubOctokit(target.apiBaseUrl, typeof target.token === "string" ? target.token : await target.token()));
  const repo = { owner: target.owner, repo: target.repo };
  // Once an answer said the hour's calls are spent, the next call of this client waits too.
  let pausedUntil = 0;
  const call = async <T>(run: (octokit: Octokit) => Promise<{ data: T; headers: Headers }>): Promise<T> => {
    const now = ctx.clock.now().getTime();
    if (pausedUntil > now) throw new GithubCallError({ kind: "rate_limited", retryAfterMs: pausedUntil - now });
    try {
      if (target.apiBaseUrl !== GITHUB_API_BASE_URL) await checkWebhookUrl(target.apiBaseUrl, ctx.config.webhookAllow);
      const answer = await run(await client());
      const wait = rateLimitWaitMs(answer.headers, ctx.clock.now().getTime());
      if (wait !== undefined && wait > 0) {
        pausedUntil = ctx.clock.now().getTime() + wait;
        await onPause(new Date(pausedUntil));
      }
      return answer.data;
    } catch (error) {
      const failure = classify(error, ctx.clock.now().getTime());
      if (failure.kind === "rate_limited") {
        pausedUntil = ctx.clock.now().getTime() + failure.retryAfterMs;
        await onPause(new Date(pausedUntil));
      }
      throw new GithubCallError(failure);
    }
  };
  const toIssue = (data: { number: number; title: string; body?: string | null; state: string; html_url: string; pull_request?: unknown }): GithubIssue => ({
    number: data.number,
    title: data.title,
    body: data.body ?? "",
    state: data.state,
    htmlUrl: data.html_url,
    isPullRequest: data.pull_request !== undefined && data.pull_request !== null,
  });
  return {
    /** `GET /repos/{owner}/{repo}`: answers when the token can see the repository. */
    async getRepository(): Promise<void> {
      await call((octokit) => octokit.rest.repos.get(repo));
    },
    /** `GET /repos/{owner}/{repo}/issues/{n}`. */
    async getIssue(issueNumber: number): Promise<GithubIssue> {
      return toIssue(await call((octokit) => octokit.rest.issues.get({ ...repo, issue_number: issueNumber })));
    },
    /** `POST /repos/{owner}/{repo}/issues`. */
    async createIssue(input: { title: string; body: string }): Promise<GithubIssue> {
      return toIssue(await call((octokit) => octokit.rest.issues.create({ ...repo, title: input.title, body: input.body })));
    },
    /** `PATCH /repos/{owner}/{repo}/issues/{n}` with the body only. */
    async setIssueBody(issueNumber: number, body: string): Promise<GithubIssue> {
      return toIssue(await call((octokit) => octokit.rest.issues.update({ ...repo, issue_number: issueNumber, body })));
    },
  };
}

export type GithubClient = ReturnType<typeof githubClient>;
