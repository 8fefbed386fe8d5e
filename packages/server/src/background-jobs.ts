import type { FastifyBaseLogger } from "fastify";
import { systemTimers, type Timers } from "./clock.js";
import type { Context } from "./context.js";
import { JobRunner } from "./jobs/runner.js";
import type { Mailer } from "./mail/mailer.js";
import { webhookJobHandler, type DeliveryHooks } from "./webhooks/delivery.js";
import { WEBHOOK_JOB } from "./webhooks/delivery-queue.js";
import { digestJobHandler } from "./notifications/digest.js";
import { DIGEST_JOB } from "./feature-requests/notices.js";
import { publishDueEntries } from "./changelog/publishing.js";
import { shipNotificationStep } from "./changelog/ship-notifications.js";
import { mailJobHandler } from "./changelog/subscription-mail.js";
import { webhookDeliverySweep } from "./integrations/deliveries.js";
import { trackerJobs } from "./integrations/tracker-jobs.js";

/**
 * The server's background runner: publish scheduled releases, turn ship-notify votes into
 * confirmations and shipped requests into mails, then send queued mail, request digests and
 * webhook deliveries (`webhookHooks.onDelivery` sees the outcome of every delivery attempt), and
 * keep GitHub and Linear in step (issues' demand blocks out, webhook deliveries in).
 * It wires the work of several areas (changelog, notifications, webhooks, integrations) into one runner, so it
 * sits beside app.ts rather than in any one of them.
 *
 * @example
 * ```ts
 * const runner = backgroundJobRunner(ctx, app.log, mailer);
 * runner.start(5_000);
 * ```
 */
export function backgroundJobRunner(ctx: Context, log: FastifyBaseLogger, mailer: Mailer, webhookHooks: DeliveryHooks = {}, timers: Timers = systemTimers): JobRunner {
  const runner = new JobRunner(ctx, log, timers);
  runner.step(publishDueEntries);
  runner.step(shipNotificationStep);
  runner.handle("mail", mailJobHandler(ctx, mailer));
  runner.handle(WEBHOOK_JOB, webhookJobHandler(ctx, webhookHooks));
  runner.handle(DIGEST_JOB, digestJobHandler(ctx));
  runner.step(webhookDeliverySweep());
  trackerJobs(runner, ctx);
  return runner;
}
