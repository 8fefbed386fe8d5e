import type { WebhookDelivery } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { enqueueJobs } from "../jobs/queue.js";
import { deliveryJob, queueDelivery } from "./delivery-queue.js";
import type { WebhookEndpointRow } from "./endpoints.js";
import { eventApp } from "./events.js";
import { WEBHOOK_EVENT_VERSION } from "./event-envelope.js";

/** Queues a `webhook.test` event to one endpoint, whatever events it chose (even disabled ones are refused by the handler). */
export async function sendTestEvent(trx: Kysely<Database>, clock: Clock, row: WebhookEndpointRow): Promise<string> {
  return queueDelivery(trx, clock, row.id, {
    type: "webhook.test",
    version: WEBHOOK_EVENT_VERSION,
    id: newId("whe", clock.now()),
    timestamp: isoNow(clock),
    app: await eventApp(trx, row.appId),
    data: { endpointId: row.id },
  });
}

/** The endpoint's latest deliveries (newest first), each with every attempt. */
export async function listDeliveries(db: Kysely<Database>, endpointId: string, limit: number, deliveryId?: string): Promise<WebhookDelivery[]> {
  let query = db.selectFrom("webhookDeliveries").selectAll().where("endpointId", "=", endpointId);
  if (deliveryId !== undefined) query = query.where("id", "=", deliveryId);
  const rows = await query.orderBy("id", "desc").limit(limit).execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom("webhookAttempts")
    .selectAll()
    .where(
      "deliveryId",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("attempt")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    endpointId: r.endpointId,
    eventId: r.eventId,
    eventType: r.eventType,
    status: r.status,
    attemptCount: Number(r.attemptCount),
    nextAttemptAt: r.nextAttemptAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    attempts: attempts
      .filter((a) => a.deliveryId === r.id)
      .map((a) => ({ attempt: Number(a.attempt), at: a.at, outcome: a.outcome, statusCode: a.statusCode === null ? null : Number(a.statusCode), latencyMs: Number(a.latencyMs), excerpt: a.excerpt })),
  }));
}

/**
 * Sends a delivery again (same event, same `webhook-id`, a fresh run of retries). A delivery
 * still pending is left as it is: its run goes on. 404 `webhook_delivery_not_found` when it is
 * not the endpoint's.
 */
export async function redeliver(trx: Kysely<Database>, clock: Clock, endpointId: string, deliveryId: string): Promise<void> {
  const row = await trx.selectFrom("webhookDeliveries").select(["id", "status", "attemptCount"]).where("id", "=", deliveryId).where("endpointId", "=", endpointId).executeTakeFirst();
  if (row === undefined) throw new ApiError("webhook_delivery_not_found");
  if (row.status === "pending") return;
  const now = isoNow(clock);
  const updated = await trx
    .updateTable("webhookDeliveries")
    .set({ status: "pending", nextAttemptAt: now, updatedAt: now })
    .where("id", "=", row.id)
    .where("status", "=", row.status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return;
  await enqueueJobs(trx, clock, [deliveryJob(row.id, newId("again", clock.now()))]);
}
