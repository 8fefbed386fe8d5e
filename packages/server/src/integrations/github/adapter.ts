import type { GithubBrokenReason } from "@tidings/protocol";
import type { TrackerAdapter, TrackerConnectionRow, TrackerIssue } from "../trackers/adapter.js";
import { installationToken } from "./app-auth.js";
import { githubClient, type GithubIssue } from "./client.js";
import { classify } from "./failures.js";
import { parseIssueRef } from "./issue-ref.js";
import { githubMappingOf, targetColumn } from "./mapping.js";
import type { GithubWebhookJobPayload } from "./webhook-events.js";

/** A connection's repository. */
export function repositoryOf(row: Pick<TrackerConnectionRow, "target">): { owner: string; repo: string } {
  const [owner = "", repo = ""] = row.target.split("/");
  return { owner, repo };
}

const WHY: Record<GithubBrokenReason, string> = {
  unauthorized: "GitHub refused its token (revoked, expired or replaced)",
  forbidden: "GitHub refused the calls for lack of permission (the token needs Issues: read and write on the repository)",
  repository_not_found: "the repository is gone, renamed, or no longer reachable with its token",
  installation_removed: "the GitHub App was uninstalled from the repository's account",
  installation_suspended: "the GitHub App's installation was suspended",
  repository_removed: "the repository was taken out of the GitHub App's installation",
};

/** Whether a connection reaches GitHub as a GitHub App installation (else with a token). */
export function isAppInstallation(row: Pick<TrackerConnectionRow, "githubInstallationId">): boolean {
  return row.githubInstallationId !== null;
}

function toIssue(issue: GithubIssue): TrackerIssue {
  return {
    id: String(issue.number),
    key: `#${issue.number}`,
    url: issue.htmlUrl,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    unlinkable: issue.isPullRequest ? `#${issue.number} is a pull request, not an issue` : null,
  };
}

/** GitHub, as the shared tracker code drives it: issues of one repository, through Octokit. */
export const githubAdapter: TrackerAdapter = {
  provider: "github",
  service: "GitHub",
  ids: { connection: "ghc", link: "ghl" },
  codes: {
    notConnected: "github_not_connected",
    alreadyConnected: "github_already_connected",
    broken: "github_connection_broken",
    issueNotFound: "github_issue_not_found",
    linkNotFound: "github_link_not_found",
    alreadyLinked: "github_already_linked",
    unavailable: "github_unavailable",
  },
  api(ctx, connection, onPause) {
    const token = isAppInstallation(connection) ? () => installationToken(ctx, connection) : (connection.credential ?? "");
    const github = githubClient(ctx, { ...repositoryOf(connection), token, apiBaseUrl: connection.apiUrl }, onPause);
    return {
      getIssue: async (issueId) => toIssue(await github.getIssue(Number(issueId))),
      createIssue: async (input) => toIssue(await github.createIssue(input)),
      setIssueBody: async (issueId, body) => {
        await github.setIssueBody(Number(issueId), body);
      },
      probeTarget: () =>
        github.getRepository().then(
          () => undefined,
          (probe: unknown) => classify(probe, ctx.clock.now().getTime()),
        ),
    };
  },
  classify,
  targetGoneReason: "repository_not_found",
  issueIdOf: (ref, connection) => String(parseIssueRef(ref, repositoryOf(connection))),
  change(raw) {
    const payload = raw as GithubWebhookJobPayload;
    return { issueId: String(payload.issueNumber), issueState: payload.issueState, column: (connection, columns) => targetColumn(payload, githubMappingOf(connection), columns) };
  },
  brokenNotice(connection, reason) {
    const { owner, repo } = repositoryOf(connection);
    return {
      target: `the GitHub repository ${owner}/${repo}`,
      why: WHY[reason as GithubBrokenReason] ?? reason,
      fix: isAppInstallation(connection)
        ? "Issues no longer move requests and their demand is no longer written to them. Install the GitHub App on the repository again (Issues: read and write, Metadata: read) and save its credentials in the app's GitHub settings to resume."
        : "Issues no longer move requests and their demand is no longer written to them. Save a new fine-grained token (Issues: read and write, Metadata: read) in the app's GitHub settings to resume.",
    };
  },
};
