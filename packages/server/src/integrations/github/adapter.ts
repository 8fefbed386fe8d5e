import type { GithubBrokenReason } from "@tidings/protocol";
import { ApiError } from "../../http/errors.js";
import type { ColumnRow } from "../../roadmap/columns.js";
import type { TrackerAdapter, TrackerConnectionRow, TrackerIssue } from "../trackers/adapter.js";
import { installationToken } from "./app-auth.js";
import { classify, githubClient, type GithubIssue } from "./client.js";

/** A label and the column (id) it moves a request to. */
export interface LabelColumn {
  label: string;
  columnId: string;
}

/** Where a GitHub connection's issue changes move requests (column ids; null: the default). */
export interface GithubMapping {
  /** Closed as completed; null: the app's first done column. */
  closedColumnId: string | null;
  /** Reopened; null: no move. */
  reopenedColumnId: string | null;
  labelColumns: LabelColumn[];
}

/** A connection's repository. */
export function repositoryOf(row: Pick<TrackerConnectionRow, "target">): { owner: string; repo: string } {
  const [owner = "", repo = ""] = row.target.split("/");
  return { owner, repo };
}

/** A connection's column mapping. */
export function githubMappingOf(row: Pick<TrackerConnectionRow, "mapping">): GithubMapping {
  return JSON.parse(row.mapping) as GithubMapping;
}

/** The column an issue closed as completed moves a request to: the chosen one, else the app's first done column. */
export function closedColumnOf(mapping: GithubMapping, columns: readonly ColumnRow[]): ColumnRow | undefined {
  return columns.find((c) => c.id === mapping.closedColumnId) ?? columns.find((c) => c.kind === "done");
}

/** The column a label (case-insensitive) moves a request to, if the connection maps it. */
export function labelColumnOf(mapping: GithubMapping, label: string, columns: readonly ColumnRow[]): ColumnRow | undefined {
  const mapped = mapping.labelColumns.find((l) => l.label.toLowerCase() === label.toLowerCase());
  return mapped === undefined ? undefined : columns.find((c) => c.id === mapped.columnId);
}

/**
 * The issue number a reference names: `42`, `#42`, `owner/repo#42` or the issue's URL, which
 * must be of the connected repository (compared case-insensitively, as GitHub does); 404
 * `github_issue_not_found` otherwise.
 */
export function parseIssueRef(ref: number | string, connection: { owner: string; repo: string }): number {
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

function targetColumn(payload: GithubWebhookJobPayload, mapping: GithubMapping, columns: readonly ColumnRow[]): ColumnRow | undefined {
  switch (payload.action) {
    case "closed":
      // Closed as not planned or as a duplicate moves nothing.
      return payload.stateReason === "completed" || payload.stateReason === null ? closedColumnOf(mapping, columns) : undefined;
    case "reopened":
      return columns.find((c) => c.id === mapping.reopenedColumnId);
    case "labeled":
      return payload.label === null ? undefined : labelColumnOf(mapping, payload.label, columns);
  }
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
