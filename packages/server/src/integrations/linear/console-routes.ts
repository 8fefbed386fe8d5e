import { ConnectLinearBodySchema, CreateLinearIssueBodySchema, IdParam, LINEAR_API_URL, LinearConnectionPatchSchema, LinearConnectionSchema, LinearIssueLinkSchema, LinkLinearIssueBodySchema } from "@tidings/protocol";
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
import { acceptableLinearApiUrl, createLinearConnection, findLinearConnection, toLinearConnection, updateLinearConnection } from "./connections.js";
import { createLinearIssueForRequest, findLinearLink, linkLinearIssue, toLinearIssueLink, unlinkLinearIssue } from "./links.js";

const tags = ["console: Linear"];
const RequestParams = Type.Object({ wsId: IdParam("ws"), id: IdParam("fr") });
const Success = Type.Object({ success: Type.Boolean() });

/**
 * An app's Linear connection (connect, change and disconnect: owners and admins, as the key is a
 * credential) and a request's Linear issue (read by any member; create, link and unlink with `triage`).
 */
export function linearConsoleRoutes(app: App, ctx: Context, jobs: JobRunner): void {
  const db = ctx.db.kysely;
  const base = "/workspaces/:wsId/apps/:appId/linear";

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
    { schema: { tags, summary: "The app's Linear connection (never its API key or webhook secret), with its status: `broken` when Linear refused the key", params: AppParams, response: { 200: LinearConnectionSchema } } },
    async (request) => {
      const { wsId, appId } = request.params;
      await appAccess(request, wsId, appId);
      return toLinearConnection(db, ctx.config, await findLinearConnection(db, appId));
    },
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: "Connect the app to a Linear team",
        description:
          "The API key is a personal API key of a member of the team; the webhook secret is the signing secret Linear shows for the webhook pointed at the answer's `webhookUrl` (docs/integrations.md). Columns are named by id or slug. 409 `linear_already_connected` when the app has a connection.",
        params: AppParams,
        body: ConnectLinearBodySchema,
        response: { 201: LinearConnectionSchema },
      },
    },
    async (request, reply) => {
      const { wsId, appId } = request.params;
      await appAccess(request, wsId, appId, "app.configure");
      const apiUrl = await acceptableLinearApiUrl(request.body.apiUrl ?? LINEAR_API_URL, ctx.config.webhookAllow);
      const row = await db.transaction().execute((trx) => createLinearConnection(trx, ctx.clock, appId, { ...request.body, apiUrl }));
      return reply.code(201).send(await toLinearConnection(db, ctx.config, row));
    },
  );

  app.patch(
    base,
    {
      schema: {
        tags,
        summary: "Change the connection's API key, webhook signing secret or state mapping; a new key repairs a broken connection",
        params: AppParams,
        body: LinearConnectionPatchSchema,
        response: { 200: LinearConnectionSchema },
      },
    },
    async (request) => {
      const { wsId, appId } = request.params;
      await appAccess(request, wsId, appId, "app.configure");
      const row = await db.transaction().execute(async (trx) => updateLinearConnection(trx, ctx.clock, await findLinearConnection(trx, appId), request.body));
      jobs.kick();
      return toLinearConnection(db, ctx.config, row);
    },
  );

  app.delete(
    base,
    { schema: { tags, summary: "Disconnect the app from Linear: its links go, the issues stay as they are", params: AppParams, response: { 200: Success } } },
    async (request) => {
      const { wsId, appId } = request.params;
      await appAccess(request, wsId, appId, "app.configure");
      await db.transaction().execute(async (trx) => {
        const row = await findLinearConnection(trx, appId);
        await trx.deleteFrom("linearConnections").where("id", "=", row.id).execute();
      });
      return { success: true };
    },
  );

  const issueBase = "/workspaces/:wsId/feature-requests/:id/linear";

  app.get(issueBase, { schema: { tags, summary: "The Linear issue a request is linked to", params: RequestParams, response: { 200: LinearIssueLinkSchema } } }, async (request) => {
    const { wsId, id } = request.params;
    const fr = await requestAccess(request, wsId, id);
    return toLinearIssueLink(await findLinearLink(db, fr.id));
  });

  app.post(
    issueBase + "/issue",
    {
      schema: {
        tags,
        summary: "Create a Linear issue from a request and link them",
        description:
          "The issue's title and description are the request's unless given; the description gets a link back to the request's portal page and the demand block. 409 `linear_already_linked`, `linear_connection_broken`; 502 `linear_unavailable` (with `Retry-After` under Linear's rate limit).",
        params: RequestParams,
        body: CreateLinearIssueBodySchema,
        response: { 201: LinearIssueLinkSchema },
      },
    },
    async (request, reply) => {
      const { wsId, id } = request.params;
      const fr = await requestAccess(request, wsId, id, "triage");
      return reply.code(201).send(await createLinearIssueForRequest(ctx, fr, request.body));
    },
  );

  app.put(
    issueBase,
    {
      schema: {
        tags,
        summary: "Link a request to an existing issue of the connected team, by identifier (`ENG-123`) or URL",
        description: "The issue is read from Linear first (404 `linear_issue_not_found`); its demand block is written within a minute.",
        params: RequestParams,
        body: LinkLinearIssueBodySchema,
        response: { 201: LinearIssueLinkSchema },
      },
    },
    async (request, reply) => {
      const { wsId, id } = request.params;
      const fr = await requestAccess(request, wsId, id, "triage");
      const link = await linkLinearIssue(ctx, fr, request.body.issue);
      jobs.kick();
      return reply.code(201).send(link);
    },
  );

  app.delete(
    issueBase,
    { schema: { tags, summary: "Unlink a request from its Linear issue; the demand block is taken out of the description, the rest is left as it is", params: RequestParams, response: { 200: Success } } },
    async (request) => {
      const { wsId, id } = request.params;
      const fr = await requestAccess(request, wsId, id, "triage");
      await db.transaction().execute((trx) => unlinkLinearIssue(trx, ctx.clock, fr.id));
      jobs.kick();
      return { success: true };
    },
  );
}
