import type { LinearBrokenReason } from "@tidings/protocol";
import { ApiError } from "../../http/errors.js";
import type { ColumnRow } from "../../roadmap/columns.js";
import type { TrackerAdapter, TrackerConnectionRow, TrackerIssue } from "../trackers/adapter.js";
import { classifyLinear, linearClient, type LinearIssue } from "./client.js";

/** The workflow state types that move a request. */
export type MappedStateType = "completed" | "started" | "canceled";

/** Where a Linear connection's state changes move requests (column ids; null: the default). */
export interface LinearMapping {
  completedColumnId: string | null;
  startedColumnId: string | null;
  canceledColumnId: string | null;
}

/** A connection's column mapping. */
export function linearMappingOf(row: Pick<TrackerConnectionRow, "mapping">): LinearMapping {
  return JSON.parse(row.mapping) as LinearMapping;
}

/**
 * The column an issue entering a state of `type` moves its request to: the chosen one, else
 * the default (completed: the first done column; started: the `in-progress` column; canceled: none).
 */
export function stateColumnOf(mapping: LinearMapping, type: string, columns: readonly ColumnRow[]): ColumnRow | undefined {
  switch (type) {
    case "completed":
      return columns.find((c) => c.id === mapping.completedColumnId) ?? columns.find((c) => c.kind === "done");
    case "started":
      return columns.find((c) => c.id === mapping.startedColumnId) ?? columns.find((c) => c.slug === "in-progress");
    case "canceled":
      return columns.find((c) => c.id === mapping.canceledColumnId);
    default:
      return undefined;
  }
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

/** What a webhook job carries: the parts of an Issue `update` delivery Tidings acts on. */
export interface LinearWebhookJobPayload {
  connectionId: string;
  deliveryId: string;
  issueId: string;
  /** The new workflow state's type (`started`, `completed`, `canceled`, …). */
  stateType: string;
}

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
