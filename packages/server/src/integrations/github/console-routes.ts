import {
  ConnectGithubBodySchema,
  CreateGithubIssueBodySchema,
  GITHUB_API_BASE_URL,
  GithubConnectionPatchSchema,
  GithubConnectionSchema,
  GithubConnectionWithSecretSchema,
  GithubIssueLinkSchema,
  IdParam,
  LinkGithubIssueBodySchema,
} from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import { findAppInWorkspace } from "../../apps/apps.js";
import { AppParams } from "../../apps/console-routes.js";
import { workspaceAccess } from "../../console/auth.js";
import { requireCapability, type Capability } from "../../console/capabilities.js";
import type { Context } from "../../context.js";
import { findRequestInWorkspace } from "../../feature-requests/triage.js";
import type { App } from "../../http/types.js";
import type { JobRunner } from "../../jobs/runner.js";
import { acceptableApiBaseUrl, createConnection, findConnection, rotateWebhookSecret, toGithubConnection, updateConnection } from "./connections.js";
import { createIssueForRequest, findLink, linkIssue, toGithubIssueLink, unlinkIssue } from "./links.js";

const tags = ["console: GitHub"];
const RequestParams = Type.Object({ wsId: IdParam("ws"), id: IdParam("fr") });
const Success = Type.Object({ success: Type.Boolean() });

/**
 * An app's GitHub connection (connect, change, rotate the webhook secret, disconnect: owners and
 * admins, as the token is a credential) and a request's issue (read by any member; create, link
 * and unlink with `triage`).
 */
export function githubConsoleRoutes(app: App, ctx: Context, jobs: JobRunner): void {
  const db = ctx.db.kysely;
  const base = "/workspaces/:wsId/apps/:appId/github";

  const appAccess = async (request: FastifyRequest, wsId: string, appId: string, capability?: Capability) => {
    const { role } = await workspaceAccess(ctx, request, wsId);
    if (capability !== undefined) requireCapability(role, capability);
    await findAppInWorkspace(db, wsId, appId);
  };
  const requestAccess = async (request: FastifyRequest, wsId: string, id: string, capability?: Capability) => {
    const { role } = await workspaceAccess(ctx, request, wsId);
    if (capability !== undefined) requireCapability(role, capability);
    return findRequestInWorkspace(db, wsId, id);
  };

  app.get(
    base,
    {
      schema: {
        tags,
        summary: "The app's GitHub connection (never its token or webhook secret), with its status: `broken` when GitHub refused the token",
        params: AppParams,
        response: { 200: GithubConnectionSchema },
      },
    },
    async (request) => {
      const { wsId, appId } = request.params;
      await appAccess(request, wsId, appId);
      return toGithubConnection(db, ctx.config, await findConnection(db, appId));
    },
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: "Connect the app to a GitHub repository; the answer is the only time its webhook secret is shown",
        description:
          "The token is a fine-grained personal access token with Issues read and write and Metadata read on the repository (docs/integrations.md). Columns are named by id or slug. 409 `github_already_connected` when the app has a connection.",
        params: AppParams,
        body: ConnectGithubBodySchema,
        response: { 201: GithubConnectionWithSecretSchema },
      },
    },
    async (request, reply) => {
      const { wsId, appId } = request.params;
      await appAccess(request, wsId, appId, "app.configure");
      const apiBaseUrl = await acceptableApiBaseUrl(request.body.apiBaseUrl ?? GITHUB_API_BASE_URL, ctx.config.webhookAllow);
      const row = await db.transaction().execute((trx) => createConnection(trx, ctx.clock, appId, { ...request.body, apiBaseUrl }));
      return reply.code(201).send({ ...(await toGithubConnection(db, ctx.config, row)), webhookSecret: row.webhookSecret });
    },
  );

  app.patch(
    base,
    {
      schema: {
        tags,
        summary: "Change the connection's token, API base URL or column mapping; a new token repairs a broken connection",
        params: AppParams,
        body: GithubConnectionPatchSchema,
        response: { 200: GithubConnectionSchema },
      },
    },
    async (request) => {
      const { wsId, appId } = request.params;
      await appAccess(request, wsId, appId, "app.configure");
      const { apiBaseUrl: rawBase, ...rest } = request.body;
      const apiBaseUrl = rawBase === undefined ? undefined : await acceptableApiBaseUrl(rawBase, ctx.config.webhookAllow);
      const row = await db.transaction().execute(async (trx) => updateConnection(trx, ctx.clock, await findConnection(trx, appId), { ...rest, apiBaseUrl }));
      jobs.kick();
      return toGithubConnection(db, ctx.config, row);
    },
  );

  app.post(
    base + "/webhook-secret",
    {
      schema: {
        tags,
        summary: "Rotate the webhook secret: the new one is shown once, deliveries signed with the old one are refused at once",
        params: AppParams,
        response: { 200: GithubConnectionWithSecretSchema },
      },
    },
    async (request) => {
      const { wsId, appId } = request.params;
      await appAccess(request, wsId, appId, "app.configure");
      const row = await db.transaction().execute(async (trx) => rotateWebhookSecret(trx, ctx.clock, await findConnection(trx, appId)));
      return { ...(await toGithubConnection(db, ctx.config, row)), webhookSecret: row.webhookSecret };
    },
  );

  app.delete(
    base,
    {
      schema: {
        tags,
        summary: "Disconnect the app from GitHub: its links go, the issues stay as they are",
        params: AppParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      const { wsId, appId } = request.params;
      await appAccess(request, wsId, appId, "app.configure");
      await db.transaction().execute(async (trx) => {
        const row = await findConnection(trx, appId);
        await trx.deleteFrom("githubConnections").where("id", "=", row.id).execute();
      });
      return { success: true };
    },
  );

  const issueBase = "/workspaces/:wsId/feature-requests/:id/github";

  app.get(
    issueBase,
    { schema: { tags, summary: "The GitHub issue a request is linked to", params: RequestParams, response: { 200: GithubIssueLinkSchema } } },
    async (request) => {
      const { wsId, id } = request.params;
      const fr = await requestAccess(request, wsId, id);
      const link = await findLink(db, fr.id);
      return toGithubIssueLink(link, await findConnection(db, fr.appId));
    },
  );

  app.post(
    issueBase + "/issue",
    {
      schema: {
        tags,
        summary: "Open a GitHub issue from a request and link them",
        description:
          "The issue's title and body are the request's unless given; the body gets a link back to the request's portal page and the demand block. 409 `github_already_linked`, `github_connection_broken`; 502 `github_unavailable` (with `Retry-After` under GitHub's rate limit).",
        params: RequestParams,
        body: CreateGithubIssueBodySchema,
        response: { 201: GithubIssueLinkSchema },
      },
    },
    async (request, reply) => {
      const { wsId, id } = request.params;
      const fr = await requestAccess(request, wsId, id, "triage");
      return reply.code(201).send(await createIssueForRequest(ctx, fr, request.body));
    },
  );

  app.put(
    issueBase,
    {
      schema: {
        tags,
        summary: "Link a request to an existing issue of the connected repository, by number or URL",
        description: "The issue is read from GitHub first (404 `github_issue_not_found`); its demand block is written within a minute.",
        params: RequestParams,
        body: LinkGithubIssueBodySchema,
        response: { 201: GithubIssueLinkSchema },
      },
    },
    async (request, reply) => {
      const { wsId, id } = request.params;
      const fr = await requestAccess(request, wsId, id, "triage");
      const link = await linkIssue(ctx, fr, request.body.issue);
      jobs.kick();
      return reply.code(201).send(link);
    },
  );

  app.delete(
    issueBase,
    { schema: { tags, summary: "Unlink a request from its GitHub issue; the demand block is taken out of the issue, the rest is left as it is", params: RequestParams, response: { 200: Success } } },
    async (request) => {
      const { wsId, id } = request.params;
      const fr = await requestAccess(request, wsId, id, "triage");
      await db.transaction().execute((trx) => unlinkIssue(trx, ctx.clock, fr.id));
      jobs.kick();
      return { success: true };
    },
  );
}
