import { GITHUB_API_BASE_URL } from "@tidings/protocol";
import type { Octokit } from "@octokit/rest";
import type { Context } from "../../context.js";
import { checkWebhookUrl } from "../../webhooks/address-guard.js";
import { classify, GithubCallError } from "./failures.js";
import { rateLimitWaitMs, type GithubHeaders } from "./rate-limits.js";

/** How long GitHub has to answer one call. */
export const GITHUB_TIMEOUT_MS = 10_000;

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

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * An Octokit for one API root, with a token or none, each call given {@link GITHUB_TIMEOUT_MS}.
 * Octokit is loaded by the first call to GitHub rather than at start: an instance without a
 * GitHub connection does not hold it.
 */
export async function githubOctokit(apiBaseUrl: string, token: string | undefined): Promise<Octokit> {
  const { Octokit } = await import("@octokit/rest");
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
    (octokit ??= await githubOctokit(target.apiBaseUrl, typeof target.token === "string" ? target.token : await target.token()));
  const repo = { owner: target.owner, repo: target.repo };
  // Once an answer said the hour's calls are spent, the next call of this client waits too.
  let pausedUntil = 0;
  const call = async <T>(run: (octokit: Octokit) => Promise<{ data: T; headers: GithubHeaders }>): Promise<T> => {
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
