import type { Context } from "../context.js";
import type { JobRunner } from "../jobs/runner.js";
import { githubAdapter } from "./github/adapter.js";
import { linearAdapter } from "./linear/adapter.js";
import type { TrackerAdapter } from "./trackers/adapter.js";
import { trackerJobKinds } from "./trackers/job-kinds.js";
import { trackerDemandJobHandler, trackerDemandStep } from "./trackers/demand-job.js";
import { trackerUnlinkJobHandler } from "./trackers/unlink-job.js";
import { trackerWebhookJobHandler } from "./trackers/webhook-job.js";

/** Every issue tracker an app can connect. */
export const TRACKER_ADAPTERS: readonly TrackerAdapter[] = [githubAdapter, linearAdapter];

/**
 * Keeps every tracker in step on a runner: one step queues the demand writes of all trackers'
 * links, and each tracker's demand, webhook and unlink jobs run the shared handlers with its adapter.
 *
 * @example
 * ```ts
 * trackerJobs(runner, ctx);
 * ```
 */
export function trackerJobs(runner: JobRunner, ctx: Context, adapters: readonly TrackerAdapter[] = TRACKER_ADAPTERS): void {
  runner.step(trackerDemandStep);
  for (const adapter of adapters) {
    const kinds = trackerJobKinds(adapter.provider);
    runner.handle(kinds.demand, trackerDemandJobHandler(ctx, adapter));
    runner.handle(kinds.webhook, trackerWebhookJobHandler(ctx, adapter));
    runner.handle(kinds.unlink, trackerUnlinkJobHandler(ctx, adapter));
  }
}
