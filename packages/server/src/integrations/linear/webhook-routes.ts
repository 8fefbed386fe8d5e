import { createHmac, timingSafeEqual } from "node:crypto";
import { IdParam } from "@tidings/protocol";
import Type from "typebox";
import type { Context } from "../../context.js";
import { ApiError } from "../../http/errors.js";
import { CONSOLE_BODY_LIMIT, type App } from "../../http/types.js";
import type { JobRunner } from "../../jobs/runner.js";
import { rawJsonBodies, takeDelivery } from "../trackers/webhook-intake.js";
import { linearAdapter } from "./adapter.js";
import { linearJobPayload } from "./webhook-events.js";

/** How far a delivery's `webhookTimestamp` may be from now, as Linear's docs advise. */
export const LINEAR_TIMESTAMP_TOLERANCE_MS = 60_000;

const Params = Type.Object({ connectionId: IdParam("lnc") });
const Headers = Type.Object({
  "linear-signature": Type.Optional(Type.String({ description: "The hex HMAC-SHA256 of the raw body keyed with the webhook's signing secret" })),
  "linear-delivery": Type.Optional(Type.String({ description: "The delivery's id: a delivery already received is acknowledged and ignored" })),
});
const Received = Type.Object({ duplicate: Type.Boolean(), queued: Type.Boolean() });

/**
 * Whether `signature` is the hex HMAC-SHA256 of `raw` keyed with `secret`, compared in constant
 * time. (`@linear/sdk/webhooks` checks the same but reads the wall clock for the timestamp;
 * Tidings checks the timestamp against its injected clock, so this is done with node's crypto.)
 *
 * @example
 * ```ts
 * validLinearSignature(rawBody, request.headers["linear-signature"], connection.webhookSecret);
 * ```
 */
export function validLinearSignature(raw: string, signature: string, secret: string): boolean {
  const expected = Buffer.from(createHmac("sha256", secret).update(raw).digest("hex"));
  const given = Buffer.from(signature.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `POST /api/v1/integrations/linear/:connectionId/webhook`: Linear's webhook deliveries. The
 * `Linear-Signature` is checked over the raw body in constant time and the body's
 * `webhookTimestamp` must be within a minute of now, before anything is written; a delivery id
 * already received is acknowledged and ignored; the work is queued, so Linear gets its 202 at once.
 *
 * @example
 * ```ts
 * await app.register(async (scope) => linearWebhookRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx, jobs));
 * ```
 */
export function linearWebhookRoutes(app: App, ctx: Context, jobs: JobRunner): void {
  const db = ctx.db.kysely;
  rawJsonBodies(app);

  app.post(
    "/api/v1/integrations/linear/:connectionId/webhook",
    {
      bodyLimit: CONSOLE_BODY_LIMIT,
      schema: {
        tags: ["integrations: Linear"],
        summary: "Receive a Linear webhook delivery (Issues data change events) for a Linear connection",
        description:
          "Give Linear the connection's `webhookUrl`. 401 `invalid_webhook_signature` for a missing or wrong `Linear-Signature` or a `webhookTimestamp` more than a minute away (nothing is written); 404 `linear_not_connected` for an unknown connection. An issue entering a mapped state type moves its linked request.",
        params: Params,
        headers: Headers,
        documentedBody: { "application/json": { type: "object", description: "Linear's webhook payload, signed as sent" } },
        response: { 202: Received },
      },
    },
    async (request, reply) => {
      const connection = await db
        .selectFrom("trackerConnections")
        .select(["id", "target as teamId", "webhookSecret"])
        .where("id", "=", request.params.connectionId)
        .where("provider", "=", "linear")
        .executeTakeFirst();
      if (connection === undefined) throw new ApiError("linear_not_connected");
      const raw = typeof request.body === "string" ? request.body : "";
      const signature = request.headers["linear-signature"];
      if (typeof signature !== "string" || raw === "" || !validLinearSignature(raw, signature, connection.webhookSecret)) throw new ApiError("invalid_webhook_signature");
      let payload: unknown;
      try {
        payload = JSON.parse(raw);
      } catch {
        throw new ApiError("invalid_json");
      }
      if (typeof payload !== "object" || payload === null) throw new ApiError("invalid_webhook_signature");
      const timestamp = (payload as { webhookTimestamp?: unknown }).webhookTimestamp;
      if (typeof timestamp !== "number" || Math.abs(ctx.clock.now().getTime() - timestamp) > LINEAR_TIMESTAMP_TOLERANCE_MS) {
        throw new ApiError("invalid_webhook_signature", { message: "The delivery's webhookTimestamp is missing or more than a minute away" });
      }
      const deliveryId = request.headers["linear-delivery"];
      if (typeof deliveryId !== "string" || deliveryId === "" || deliveryId.length > 100) {
        throw new ApiError("validation_failed", { message: "Linear-Delivery is required", details: { formErrors: ["Linear-Delivery is required"], fieldErrors: {} } });
      }
      const job = linearJobPayload(connection, deliveryId, payload as Record<string, unknown>);
      return reply.code(202).send(await takeDelivery(ctx, jobs, linearAdapter, { connectionId: connection.id, deliveryId, event: typeof (payload as { type?: unknown }).type === "string" ? String((payload as { type: string }).type) : "", job }));
    },
  );
}
