import type { FastifyBaseLogger } from "fastify";
import { systemTimers, type Timers } from "../clock.js";
import type { Context } from "../context.js";
import { JobRunner } from "../jobs/runner.js";
import type { Mailer } from "../mail/mailer.js";
import { webhookJobHandler, type DeliveryHooks } from "../webhooks/delivery.js";
import { WEBHOOK_JOB } from "../webhooks/events.js";
import { digestJobHandler } from "../notifications/digest.js";
import { DIGEST_JOB } from "../notifications/notices.js";
import { mailJobHandler, publishDueEntries, shipNotificationStep } from "./publishing.js";

/**
 * The runner with the changelog's work: publish scheduled releases, turn ship-notify votes into
 * confirmations and shipped requests into mails, then send queued mail and webhook deliveries
 * (`webhookHooks.onDelivery` sees the outcome of every delivery attempt).
 *
 * @example
 * ```ts
 * const runner = changelogJobRunner(ctx, app.log, mailer);
 * runner.start(5_000);
 * ```
 */
export function changelogJobRunner(ctx: Context, log: FastifyBaseLogger, mailer: Mailer, webhookHooks: DeliveryHooks = {}, timers: Timers = systemTimers): JobRunner {
  const runner = new JobRunner(ctx, log, timers);
  runner.step(publishDueEntries);
  runner.step(shipNotificationStep);
  runner.handle("mail", mailJobHandler(ctx, mailer));
  runner.handle(WEBHOOK_JOB, webhookJobHandler(ctx, webhookHooks));
  runner.handle(DIGEST_JOB, digestJobHandler(ctx));
  return runner;
}
