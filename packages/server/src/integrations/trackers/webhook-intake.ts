import { isoNow } from "../../clock.js";
import type { Context } from "../../context.js";
import { CONSOLE_BODY_LIMIT, type App } from "../../http/types.js";
import { enqueueJobs } from "../../jobs/queue.js";
import type { JobRunner } from "../../jobs/runner.js";
import type { TrackerAdapter } from "./adapter.js";
import { trackerJobKinds } from "./job-kinds.js";

/** Keeps JSON bodies of the scope's routes raw text, for the signature check over the bytes sent. */
export function rawJsonBodies(app: App): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: CONSOLE_BODY_LIMIT }, (_request, body, done) => done(null, body));
}

/**
 * Records a verified delivery and queues its work (when it has any) in one transaction; a
 * delivery id already received for the connection changes nothing. Answers what the tracker is told.
 *
 * @example
 * ```ts
 * return reply.code(202).send(await takeDelivery(ctx, jobs, githubAdapter, { connectionId, deliveryId, event: "issues", job }));
 * ```
 */
export async function takeDelivery(
  ctx: Context,
  jobs: JobRunner,
  adapter: Pick<TrackerAdapter, "provider">,
  delivery: { connectionId: string; deliveryId: string; event: string; job: object | undefined },
): Promise<{ duplicate: boolean; queued: boolean }> {
  const { connectionId, deliveryId, job } = delivery;
  const kind = trackerJobKinds(adapter.provider).webhook;
  const fresh = await ctx.db.kysely.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("trackerWebhookDeliveries")
      .values({ connectionId, deliveryId, event: delivery.event.slice(0, 100), receivedAt: isoNow(ctx.clock) })
      .onConflict((oc) => oc.columns(["connectionId", "deliveryId"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
    if (job !== undefined) await enqueueJobs(trx, ctx.clock, [{ kind, refId: connectionId, dedupeKey: `${kind}:${connectionId}:${deliveryId}`, payload: job }]);
    return true;
  });
  if (fresh && job !== undefined) jobs.kick();
  return { duplicate: !fresh, queued: fresh && job !== undefined };
}
