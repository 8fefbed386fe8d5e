import {
  ConnectLinearBodySchema,
  CreateLinearIssueBodySchema,
  LINEAR_API_URL,
  LinearConnectionPatchSchema,
  LinearConnectionSchema,
  LinearIssueLinkSchema,
  LinkLinearIssueBodySchema,
  type ConnectLinearBody,
  type CreateLinearIssueBody,
  type LinearConnectionPatch,
  type LinearIssueLink,
} from "@tidings/protocol";
import type { Context } from "../../context.js";
import type { App } from "../../http/types.js";
import type { JobRunner } from "../../jobs/runner.js";
import type { TrackerLinkRow } from "../trackers/adapter.js";
import { findTrackerConnection } from "../trackers/connections.js";
import { trackerConsoleRoutes } from "../trackers/console-routes.js";
import type { TrackerConsoleSpec } from "../trackers/console-spec.js";
import { linearAdapter } from "./adapter.js";
import { acceptableLinearApiUrl, createLinearConnection, toLinearConnection, updateLinearConnection } from "./connections.js";

/** A link as the console shows it. */
export function toLinearIssueLink(row: TrackerLinkRow): LinearIssueLink {
  return {
    featureRequestId: row.featureRequestId,
    connectionId: row.connectionId,
    issueId: row.issueId,
    issueIdentifier: row.issueKey,
    issueUrl: row.issueUrl,
    issueTitle: row.issueTitle,
    issueState: row.issueState,
    lastSyncedAt: row.pushedAt,
    syncError: row.syncError,
    createdAt: row.createdAt,
  };
}

/** Linear's connection and issue routes: the shared tracker route set with Linear's schemas and words. */
export const linearConsoleSpec: TrackerConsoleSpec = {
  adapter: linearAdapter,
  schemas: {
    connection: LinearConnectionSchema,
    created: LinearConnectionSchema,
    connect: ConnectLinearBodySchema,
    patch: LinearConnectionPatchSchema,
    link: LinearIssueLinkSchema,
    createIssue: CreateLinearIssueBodySchema,
    linkIssue: LinkLinearIssueBodySchema,
  },
  docs: {
    get: { summary: "The app's Linear connection (never its API key or webhook secret), with its status: `broken` when Linear refused the key" },
    connect: {
      summary: "Connect the app to a Linear team",
      description:
        "The API key is a personal API key of a member of the team; the webhook secret is the signing secret Linear shows for the webhook pointed at the answer's `webhookUrl` (docs/integrations.md). Columns are named by id or slug. 409 `linear_already_connected` when the app has a connection.",
    },
    patch: { summary: "Change the connection's API key, webhook signing secret or state mapping; a new key repairs a broken connection" },
    disconnect: { summary: "Disconnect the app from Linear: its links go, the issues stay as they are" },
    getLink: { summary: "The Linear issue a request is linked to" },
    createIssue: {
      summary: "Create a Linear issue from a request and link them",
      description:
        "The issue's title and description are the request's unless given; the description gets a link back to the request's portal page and the demand block. 409 `linear_already_linked`, `linear_connection_broken`; 502 `linear_unavailable` (with `Retry-After` under Linear's rate limit).",
    },
    linkIssue: {
      summary: "Link a request to an existing issue of the connected team, by identifier (`ENG-123`) or URL",
      description: "The issue is read from Linear first (404 `linear_issue_not_found`); its demand block is written within a minute.",
    },
    unlink: { summary: "Unlink a request from its Linear issue; the demand block is taken out of the description, the rest is left as it is" },
  },
  async connect(ctx, appId, raw) {
    const body = raw as ConnectLinearBody;
    const apiUrl = await acceptableLinearApiUrl(body.apiUrl ?? LINEAR_API_URL, ctx.config.webhookAllow);
    return ctx.db.kysely.transaction().execute((trx) => createLinearConnection(trx, ctx.clock, appId, { ...body, apiUrl }));
  },
  patch: (ctx, appId, raw) =>
    ctx.db.kysely.transaction().execute(async (trx) => updateLinearConnection(trx, ctx.clock, await findTrackerConnection(trx, linearAdapter, appId), raw as LinearConnectionPatch)),
  view: (ctx, row) => toLinearConnection(ctx.db.kysely, ctx.config, row),
  created: (ctx, row) => toLinearConnection(ctx.db.kysely, ctx.config, row),
  linkView: (link) => toLinearIssueLink(link),
  issueInput: (raw) => {
    const body = raw as CreateLinearIssueBody;
    return { title: body.title, body: body.description };
  },
};

/**
 * An app's Linear connection (connect, change and disconnect: owners and admins, as the key is a
 * credential) and a request's Linear issue (read by any member; create, link and unlink with `triage`).
 */
export function linearConsoleRoutes(app: App, ctx: Context, jobs: JobRunner): void {
  trackerConsoleRoutes(app, ctx, jobs, linearConsoleSpec);
}
