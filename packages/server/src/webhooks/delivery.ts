import { dropLoneSurrogates, type WebhookFormat } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { Webhook } from "standardwebhooks";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";
import { RetryLater } from "../jobs/job-outcomes.js";
import { type JobRow } from "../jobs/job-claims.js";
import type { JobHandler } from "../jobs/runner.js";
import { publicBase } from "../mail/compose.js";
import type { WebhookEvent } from "./event-envelope.js";
import { disableFailing } from "./failing-endpoints.js";
import { renderBody } from "./formats.js";
import { retryDelay } from "./retry.js";
import { postWebhook, type AttemptOutcome, type SendResult } from "./send.js";

/** What one delivery attempt came to, for a metrics counter. */
export type DeliveryOutcome = AttemptOutcome;

/** Hooks of the delivery handler. */
export interface DeliveryHooks {
  /** Called once per HTTP attempt with its outcome (a metrics counter of deliveries by outcome). */
  onDelivery?: (outcome: DeliveryOutcome) => void;
}

/** The headers of one attempt: Standard Webhooks' id, timestamp (seconds) and `v1,` signature of `id.timestamp.body`. */
export function signedHeaders(secret: string, messageId: string, at: Date, body: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Tidings-Webhooks/1",
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(messageId, at, body),
  };
}

async function recordAttempt(trx: Kysely<Database>, deliveryId: string, attempt: number, at: string, result: SendResult): Promise<void> {
  await trx
    .insertInto("webhookAttempts")
    .values({
      id: newId("wha", new Date(at)),
      deliveryId,
      attempt,
      at,
      outcome: result.outcome,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      // PostgreSQL text holds no NUL, and a cut may have split a surrogate pair.
      excerpt: dropLoneSurrogates(result.excerpt.replace(/\0/g, "")),
    })
    .execute();
}

/**
 * The `webhook` job handler: renders the delivery's event in its endpoint's format, signs it,
 * sends it, and records the attempt. A failure is retried on the {@link retryDelay} schedule; a
 * delivery that spent every attempt counts towards disabling its endpoint, a success resets that
 * count. Deliveries of a deleted endpoint are dropped, those of a disabled one cancelled.
 *
 * @example
 * ```ts
 * runner.handle("webhook", webhookJobHandler(ctx, { onDelivery: (outcome) => counter.inc({ outcome }) }));
 * ```
 */
export function webhookJobHandler(ctx: Context, hooks: DeliveryHooks = {}): JobHandler {
  const db = ctx.db.kysely;
  return async (raw: unknown, job: JobRow): Promise<void> => {
    const { deliveryId } = raw as { deliveryId: string };
    const row = await db
      .selectFrom("webhookDeliveries as d")
      .innerJoin("webhookEndpoints as e", "e.id", "d.endpointId")
      .select(["d.id", "d.event", "d.eventId", "d.status", "d.attemptCount", "e.id as endpointId", "e.url", "e.format", "e.secret", "e.enabled"])
      .where("d.id", "=", deliveryId)
      .executeTakeFirst();
    if (row === undefined || row.status !== "pending") return;
    if (row.enabled !== 1) {
      await db.updateTable("webhookDeliveries").set({ status: "cancelled", nextAttemptAt: null, updatedAt: isoNow(ctx.clock) }).where("id", "=", row.id).execute();
      return;
    }
    const event = JSON.parse(row.event) as WebhookEvent;
    const body = renderBody(row.format as WebhookFormat, event, { base: publicBase(ctx.config) });
    const at = ctx.clock.now();
    const result = await postWebhook(row.url, signedHeaders(row.secret, row.eventId, at, body), body, { allow: ctx.config.webhookAllow });
    hooks.onDelivery?.(result.outcome);
    const success = result.outcome === "success";
    const spent = !success && job.attempts >= job.maxAttempts;
    const delay = success || spent ? 0 : retryDelay(job.attempts);
    await db.transaction().execute(async (trx) => {
      const now = isoNow(ctx.clock);
      await recordAttempt(trx, row.id, row.attemptCount + 1, at.toISOString(), result);
      await trx
        .updateTable("webhookDeliveries")
        .set({
          status: success ? "delivered" : spent ? "failed" : "pending",
          attemptCount: row.attemptCount + 1,
          nextAttemptAt: success || spent ? null : new Date(ctx.clock.now().getTime() + delay).toISOString(),
          updatedAt: now,
        })
        .where("id", "=", row.id)
        .execute();
      if (success) {
        await trx.updateTable("webhookEndpoints").set({ consecutiveFailures: 0 }).where("id", "=", row.endpointId).where("consecutiveFailures", ">", 0).execute();
      } else if (spent) {
        await trx
          .updateTable("webhookEndpoints")
          .set((eb) => ({ consecutiveFailures: eb("consecutiveFailures", "+", 1) }))
          .where("id", "=", row.endpointId)
          .execute();
        await disableFailing(trx, ctx, row.endpointId);
      }
    });
    if (!success) throw new RetryLater(`${result.outcome}${result.statusCode === null ? "" : ` ${result.statusCode}`}: ${result.excerpt.slice(0, 200)}`, delay);
  };
}
