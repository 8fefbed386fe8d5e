import { CreateWebhookBodySchema, IdParam, WebhookEndpointSchema, WebhookPatchSchema, WebhookWithSecretSchema } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import { findAppInWorkspace } from "../apps/apps.js";
import { AppParams } from "../apps/console-routes.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { acceptableUrl, createEndpoint, findEndpoint, listEndpoints, rotateEndpointSecret, toWebhookEndpoint, updateEndpoint } from "./endpoints.js";

export const tags = ["console: webhooks"];
export const EndpointParams = Type.Object({ wsId: IdParam("ws"), appId: IdParam("app"), webhookId: IdParam("whk") });
export const WEBHOOKS_BASE = "/workspaces/:wsId/apps/:appId/webhooks";

/**
 * Every webhook route needs `app.configure` (owner, admin): an endpoint URL (a Slack or Discord
 * webhook URL above all) is itself a credential.
 */
export async function requireWebhookManager(ctx: Context, request: FastifyRequest, wsId: string, appId: string): Promise<void> {
  const { role } = await workspaceAccess(ctx, request, wsId);
  requireCapability(role, "app.configure");
  await findAppInWorkspace(ctx.db.kysely, wsId, appId);
}

/** An app's webhook endpoints: listing, creating, reading, changing and deleting them, and rotating a secret. */
export function endpointRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;
  const base = WEBHOOKS_BASE;

  app.get(
    base,
    { schema: { tags, summary: "An app's webhook endpoints (without their secrets)", params: AppParams, response: { 200: Type.Object({ webhooks: Type.Array(WebhookEndpointSchema) }) } } },
    async (request) => {
      await requireWebhookManager(ctx, request, request.params.wsId, request.params.appId);
      return { webhooks: (await listEndpoints(db, request.params.appId)).map(toWebhookEndpoint) };
    },
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: "Add an endpoint; the answer is the only time its signing secret is shown",
        description: "The URL must be http(s) and resolve to a public address (or one `TIDINGS_WEBHOOK_ALLOW` names).",
        params: AppParams,
        body: CreateWebhookBodySchema,
        response: { 201: WebhookWithSecretSchema },
      },
    },
    async (request, reply) => {
      const { wsId, appId } = request.params;
      await requireWebhookManager(ctx, request, wsId, appId);
      const url = await acceptableUrl(request.body.url, ctx.config.webhookAllow);
      const { row, secret } = await db.transaction().execute((trx) => createEndpoint(trx, ctx.clock, appId, { ...request.body, url }));
      return reply.code(201).send({ ...toWebhookEndpoint(row), secret });
    },
  );

  app.get(base + "/:webhookId", { schema: { tags, summary: "One webhook endpoint (without its signing secret)", params: EndpointParams, response: { 200: WebhookEndpointSchema } } }, async (request) => {
    const { wsId, appId, webhookId } = request.params;
    await requireWebhookManager(ctx, request, wsId, appId);
    return toWebhookEndpoint(await findEndpoint(db, appId, webhookId));
  });

  app.put(
    base + "/:webhookId",
    {
      schema: {
        tags,
        summary: "Change an endpoint's URL, events, format or description, or enable/disable it",
        description: "Enabling an endpoint the server disabled clears its run of failures.",
        params: EndpointParams,
        body: WebhookPatchSchema,
        response: { 200: WebhookEndpointSchema },
      },
    },
    async (request) => {
      const { wsId, appId, webhookId } = request.params;
      await requireWebhookManager(ctx, request, wsId, appId);
      const { url: rawUrl, ...rest } = request.body;
      const url = rawUrl === undefined ? undefined : await acceptableUrl(rawUrl, ctx.config.webhookAllow);
      const row = await db.transaction().execute(async (trx) => {
        const current = await findEndpoint(trx, appId, webhookId);
        return updateEndpoint(trx, ctx.clock, current, { ...rest, ...(url === undefined ? {} : { url }) });
      });
      return toWebhookEndpoint(row);
    },
  );

  app.delete(
    base + "/:webhookId",
    { schema: { tags, summary: "Delete an endpoint with its delivery log", params: EndpointParams, response: { 200: Type.Object({ success: Type.Boolean() }) } } },
    async (request) => {
      const { wsId, appId, webhookId } = request.params;
      await requireWebhookManager(ctx, request, wsId, appId);
      await db.transaction().execute(async (trx) => {
        await findEndpoint(trx, appId, webhookId);
        await trx.deleteFrom("webhookEndpoints").where("id", "=", webhookId).execute();
      });
      return { success: true };
    },
  );

  app.post(
    base + "/:webhookId/secret",
    {
      schema: {
        tags,
        summary: "Rotate the signing secret: the new one is shown once, the old one stops signing at once",
        params: EndpointParams,
        response: { 200: WebhookWithSecretSchema },
      },
    },
    async (request) => {
      const { wsId, appId, webhookId } = request.params;
      await requireWebhookManager(ctx, request, wsId, appId);
      const row = await db.transaction().execute(async (trx) => rotateEndpointSecret(trx, ctx.clock, await findEndpoint(trx, appId, webhookId)));
      return { ...toWebhookEndpoint(row), secret: row.secret };
    },
  );
}
