import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";
import { enqueueJobs } from "../jobs/queue.js";
import type { WebhookEvent } from "./event-envelope.js";
import { WEBHOOK_RETRY_DELAYS_MS } from "./retry.js";

/** The job kind that sends one delivery. */
export const WEBHOOK_JOB = "webhook";

/** Inserts a delivery of `event` to one endpoint and the job that sends it. */
export async function queueDelivery(trx: Kysely<Database>, clock: Clock, endpointId: string, event: WebhookEvent): Promise<string> {
  const now = isoNow(clock);
  const id = newId("whd", clock.now());
  await trx
    .insertInto("webhookDeliveries")
    .values({
      id,
      endpointId,
      appId: event.app.id,
      eventId: event.id,
      eventType: event.type,
      event: JSON.stringify(event),
      status: "pending",
      attemptCount: 0,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  await enqueueJobs(trx, clock, [deliveryJob(id, "first")]);
  return id;
}

/** The job of one run of a delivery (`run` keeps a redelivery apart from the first run). */
export function deliveryJob(deliveryId: string, run: string) {
  return { kind: WEBHOOK_JOB, refId: deliveryId, dedupeKey: `webhook:${deliveryId}:${run}`, payload: { deliveryId }, maxAttempts: WEBHOOK_RETRY_DELAYS_MS.length + 1 };
}
