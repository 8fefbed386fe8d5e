import type { LinearBrokenReason } from "@tidings/protocol";
import type { TrackerAdapter, TrackerIssue } from "../trackers/adapter.js";
import { linearClient, type LinearIssue } from "./client.js";
import { classifyLinear } from "./failures.js";
import { parseLinearIssueRef } from "./issue-ref.js";
import { linearMappingOf, stateColumnOf } from "./mapping.js";
import type { LinearWebhookJobPayload } from "./webhook-events.js";

const WHY: Record<LinearBrokenReason, string> = {
  unauthorized: "Linear refused its API key (revoked, expired or replaced)",
  forbidden: "Linear refused the calls for lack of access to the team",
};

function toIssue(issue: LinearIssue): TrackerIssue {
  return { id: issue.id, key: issue.identifier, url: issue.url, title: issue.title, body: issue.description, state: null, unlinkable: null };
}

/** Linear, as the shared tracker code drives it: issues of one team, through `@linear/sdk`. */
export const linearAdapter: TrackerAdapter = {
  provider: "linear",
  service: "Linear",
  ids: { connection: "lnc", link: "lnl" },
  codes: {
    notConnected: "linear_not_connected",
    alreadyConnected: "linear_already_connected",
    broken: "linear_connection_broken",
    issueNotFound: "linear_issue_not_found",
    linkNotFound: "linear_link_not_found",
    alreadyLinked: "linear_already_linked",
    unavailable: "linear_unavailable",
  },
  api(ctx, connection) {
    const linear = linearClient(ctx, { teamId: connection.target, apiKey: connection.credential ?? "", apiUrl: connection.apiUrl });
    return {
      getIssue: async (issueId) => toIssue(await linear.getIssue(issueId)),
      createIssue: async (input) => toIssue(await linear.createIssue({ title: input.title, description: input.body })),
      setIssueBody: (issueId, body) => linear.setDescription(issueId, body),
    };
  },
  classify: classifyLinear,
  issueIdOf: (ref) => parseLinearIssueRef(String(ref)),
  change(raw) {
    const payload = raw as LinearWebhookJobPayload;
    return { issueId: payload.issueId, issueState: payload.stateType, column: (connection, columns) => stateColumnOf(linearMappingOf(connection), payload.stateType, columns) };
  },
  brokenNotice(connection, reason) {
    return {
      target: `the Linear team ${connection.target}`,
      why: WHY[reason as LinearBrokenReason] ?? reason,
      fix: "Issues no longer move requests and their demand is no longer written to them. Save a new API key in the app's Linear settings to resume.",
    };
  },
};
