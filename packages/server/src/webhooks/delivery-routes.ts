import { IdParam, WebhookDeliveryListSchema, WebhookDeliverySchema } from "@tidings/protocol";
import Type from "typebox";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import type { JobRunner } from "../jobs/runner.js";
import { EndpointParams, requireWebhookManager, tags, WEBHOOKS_BASE } from "./endpoint-routes.js";
import { listDeliveries, redeliver, sendTestEvent } from "./delivery-log.js";
import { findEndpoint } from "./endpoints.js";

const DeliveryParams = Type.Object({ wsId: IdParam("ws"), appId: IdParam("app"), webhookId: IdParam("whk"), deliveryId: IdParam("whd") });
const DeliveryQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) });

/** An endpoint's deliveries: a test event, the delivery log, and sending a delivery again. */
export function deliveryRoutes(app: App, ctx: Context, jobs: JobRunner): void {
  const db = ctx.db.kysely;
  const base = WEBHOOKS_BASE;

  app.post(
    base + "/:webhookId/test",
    {
      schema: {
        tags,
        summary: "Send a `webhook.test` event to the endpoint (it shows in the delivery log)",
        params: EndpointParams,
        response: { 202: Type.Object({ deliveryId: Type.String() }) },
      },
    },
    async (request, reply) => {
      const { wsId, appId, webhookId } = request.params;
      await requireWebhookManager(ctx, request, wsId, appId);
      const deliveryId = await db.transaction().execute(async (trx) => sendTestEvent(trx, ctx.clock, await findEndpoint(trx, appId, webhookId)));
      jobs.kick();
      return reply.code(202).send({ deliveryId });
    },
  );

  app.get(
    base + "/:webhookId/deliveries",
    {
      schema: {
        tags,
        summary: "The endpoint's delivery log, newest first, each delivery with every attempt",
        description: "`limit` 1–100 (default 50).",
        params: EndpointParams,
        querystring: DeliveryQuery,
        response: { 200: WebhookDeliveryListSchema },
      },
    },
    async (request) => {
      const { wsId, appId, webhookId } = request.params;
      await requireWebhookManager(ctx, request, wsId, appId);
      await findEndpoint(db, appId, webhookId);
      return { deliveries: await listDeliveries(db, webhookId, request.query.limit ?? 50) };
    },
  );

  app.post(
    base + "/:webhookId/deliveries/:deliveryId/redeliver",
    {
      schema: {
        tags,
        summary: "Send a delivery again: same event and webhook-id, a fresh run of retries",
        description: "A delivery still pending is left to its run.",
        params: DeliveryParams,
        response: { 202: WebhookDeliverySchema },
      },
    },
    async (request, reply) => {
      const { wsId, appId, webhookId, deliveryId } = request.params;
      await requireWebhookManager(ctx, request, wsId, appId);
      await db.transaction().execute(async (trx) => {
        await findEndpoint(trx, appId, webhookId);
        await redeliver(trx, ctx.clock, webhookId, deliveryId);
      });
      jobs.kick();
      const [delivery] = await listDeliveries(db, webhookId, 1, deliveryId);
      return reply.code(202).send(delivery!);
    },
  );
}
