import type { Context } from "../../context.js";
import { RetryLater } from "../../jobs/job-outcomes.js";
import type { TrackerAdapter, TrackerApi, TrackerFailure } from "./adapter.js";
import { markBroken } from "./broken.js";
import { pauseTrackerConnection } from "./connections.js";

/**
 * What a failed outbound call does to its job: a rate limit pauses the connection and
 * reschedules the job; a refused credential, or a target that is gone, breaks the connection
 * (owners mailed). Answers whether the failure was settled; a 404 on the issue is left to the caller.
 */
export async function settleFailure(ctx: Context, adapter: TrackerAdapter, connectionId: string, failure: TrackerFailure): Promise<boolean> {
  if (failure.kind === "rate_limited") {
    await pauseTrackerConnection(ctx.db.kysely, connectionId, new Date(ctx.clock.now().getTime() + failure.retryAfterMs));
    throw new RetryLater(`${adapter.service} rate limit`, failure.retryAfterMs);
  }
  if (failure.kind === "unauthorized" || failure.kind === "forbidden") {
    await markBroken(ctx, adapter, connectionId, failure.kind);
    return true;
  }
  if (failure.kind === "gone") {
    await markBroken(ctx, adapter, connectionId, failure.reason);
    return true;
  }
  return false;
}

/** After a 404 on an issue: whether the issue alone is gone (true), or the target is and the connection was broken (false). */
export async function issueAloneGone(ctx: Context, adapter: TrackerAdapter, api: TrackerApi, connectionId: string, error: unknown): Promise<boolean> {
  if (adapter.targetGoneReason === undefined || api.probeTarget === undefined) return true;
  const probe = await api.probeTarget();
  if (probe === undefined) return true;
  if (probe.kind === "not_found") {
    await markBroken(ctx, adapter, connectionId, adapter.targetGoneReason);
    return false;
  }
  if (await settleFailure(ctx, adapter, connectionId, probe)) return false;
  throw error;
}
