import {
  ConnectGithubBodySchema,
  CreateGithubIssueBodySchema,
  GITHUB_API_BASE_URL,
  GithubConnectionPatchSchema,
  GithubConnectionSchema,
  GithubConnectionWithSecretSchema,
  GithubIssueLinkSchema,
  LinkGithubIssueBodySchema,
  type ConnectGithubBody,
  type CreateGithubIssueBody,
  type GithubConnectionPatch,
  type GithubIssueLink,
} from "@tidings/protocol";
import { AppParams } from "../../apps/console-routes.js";
import type { Context } from "../../context.js";
import type { App } from "../../http/types.js";
import type { JobRunner } from "../../jobs/runner.js";
import type { TrackerConnectionRow, TrackerLinkRow } from "../trackers/adapter.js";
import { findTrackerConnection } from "../trackers/connections.js";
import { consoleAccess } from "../trackers/console-access.js";
import { trackerConsoleRoutes } from "../trackers/console-routes.js";
import type { TrackerConsoleSpec } from "../trackers/console-spec.js";
import { githubAdapter } from "./adapter.js";
import { acceptableApiBaseUrl, createConnection, rotateWebhookSecret, toGithubConnection, updateConnection } from "./connections.js";

/** A link as the console shows it. */
export function toGithubIssueLink(row: TrackerLinkRow, connection: Pick<TrackerConnectionRow, "target">): GithubIssueLink {
  return {
    featureRequestId: row.featureRequestId,
    connectionId: row.connectionId,
    repository: connection.target,
    issueNumber: Number(row.issueId),
    issueUrl: row.issueUrl,
    issueTitle: row.issueTitle,
    issueState: row.issueState ?? "open",
    lastSyncedAt: row.pushedAt,
    syncError: row.syncError,
    createdAt: row.createdAt,
  };
}

/** GitHub's connection and issue routes: the shared tracker route set with GitHub's schemas and words. */
export const githubConsoleSpec: TrackerConsoleSpec = {
  adapter: githubAdapter,
  schemas: {
    connection: GithubConnectionSchema,
    created: GithubConnectionWithSecretSchema,
    connect: ConnectGithubBodySchema,
    patch: GithubConnectionPatchSchema,
    link: GithubIssueLinkSchema,
    createIssue: CreateGithubIssueBodySchema,
    linkIssue: LinkGithubIssueBodySchema,
  },
  docs: {
    get: { summary: "The app's GitHub connection (never its token or webhook secret), with its status: `broken` when GitHub refused the token" },
    connect: {
      summary: "Connect the app to a GitHub repository; the answer is the only time its webhook secret is shown",
      description:
        "The token is a fine-grained personal access token with Issues read and write and Metadata read on the repository (docs/integrations.md). Columns are named by id or slug. 409 `github_already_connected` when the app has a connection.",
    },
    patch: { summary: "Change the connection's token, API base URL or column mapping; a new token repairs a broken connection" },
    disconnect: { summary: "Disconnect the app from GitHub: its links go, the issues stay as they are" },
    getLink: { summary: "The GitHub issue a request is linked to" },
    createIssue: {
      summary: "Open a GitHub issue from a request and link them",
      description:
        "The issue's title and body are the request's unless given; the body gets a link back to the request's portal page and the demand block. 409 `github_already_linked`, `github_connection_broken`; 502 `github_unavailable` (with `Retry-After` under GitHub's rate limit).",
    },
    linkIssue: {
      summary: "Link a request to an existing issue of the connected repository, by number or URL",
      description: "The issue is read from GitHub first (404 `github_issue_not_found`); its demand block is written within a minute.",
    },
    unlink: { summary: "Unlink a request from its GitHub issue; the demand block is taken out of the issue, the rest is left as it is" },
  },
  async connect(ctx, appId, raw) {
    const body = raw as ConnectGithubBody;
    const apiBaseUrl = await acceptableApiBaseUrl(body.apiBaseUrl ?? GITHUB_API_BASE_URL, ctx.config.webhookAllow);
    return ctx.db.kysely.transaction().execute((trx) => createConnection(trx, ctx.clock, appId, { ...body, apiBaseUrl }));
  },
  async patch(ctx, appId, raw) {
    const { apiBaseUrl: rawBase, ...rest } = raw as GithubConnectionPatch;
    const apiBaseUrl = rawBase === undefined ? undefined : await acceptableApiBaseUrl(rawBase, ctx.config.webhookAllow);
    return ctx.db.kysely.transaction().execute(async (trx) => updateConnection(trx, ctx.clock, await findTrackerConnection(trx, githubAdapter, appId), { ...rest, apiBaseUrl }));
  },
  view: (ctx, row) => toGithubConnection(ctx.db.kysely, ctx.config, row),
  created: async (ctx, row) => ({ ...(await toGithubConnection(ctx.db.kysely, ctx.config, row)), webhookSecret: row.webhookSecret }),
  linkView: toGithubIssueLink,
  issueInput: (raw) => raw as CreateGithubIssueBody,
};

/**
 * An app's GitHub connection (connect, change, rotate the webhook secret, disconnect: owners and
 * admins, as the token is a credential) and a request's issue (read by any member; create, link
 * and unlink with `triage`).
 */
export function githubConsoleRoutes(app: App, ctx: Context, jobs: JobRunner): void {
  trackerConsoleRoutes(app, ctx, jobs, githubConsoleSpec);
  const access = consoleAccess(ctx);
  app.post(
    "/workspaces/:wsId/apps/:appId/github/webhook-secret",
    {
      schema: {
        tags: ["console: GitHub"],
        summary: "Rotate the webhook secret: the new one is shown once, deliveries signed with the old one are refused at once",
        params: AppParams,
        response: { 200: GithubConnectionWithSecretSchema },
      },
    },
    async (request) => {
      const { wsId, appId } = request.params;
      await access.app(request, wsId, appId, "app.configure");
      const row = await ctx.db.kysely.transaction().execute(async (trx) => rotateWebhookSecret(trx, ctx.clock, await findTrackerConnection(trx, githubAdapter, appId)));
      return { ...(await toGithubConnection(ctx.db.kysely, ctx.config, row)), webhookSecret: row.webhookSecret };
    },
  );
}

