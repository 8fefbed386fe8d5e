import type { Context } from "../context.js";

/**
 * How long a webhook delivery id is remembered (GitHub's and Linear's). GitHub redelivers only
 * deliveries of the past three days and Linear retries for hours, so a month is ample; after it
 * the id is forgotten and the tables stay small.
 */
export const DELIVERY_MEMORY_MS = 30 * 24 * 3_600_000;

/**
 * A background-job step that forgets delivery ids older than {@link DELIVERY_MEMORY_MS}, at most
 * once per `intervalMs` of the context's clock.
 *
 * @example
 * ```ts
 * runner.step(webhookDeliverySweep());
 * ```
 */
export function webhookDeliverySweep(intervalMs = 60 * 60_000): (ctx: Context) => Promise<void> {
  let next = Number.NEGATIVE_INFINITY;
  return async (ctx) => {
    const now = ctx.clock.now().getTime();
    if (now < next) return;
    next = now + intervalMs;
    const before = new Date(now - DELIVERY_MEMORY_MS).toISOString();
    await ctx.db.kysely.deleteFrom("trackerWebhookDeliveries").where("receivedAt", "<", before).execute();
  };
}
