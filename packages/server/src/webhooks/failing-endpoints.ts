import type { Kysely } from "kysely";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { enqueueJobs } from "../jobs/queue.js";
import { composeMail, oneLine, publicBase } from "../mail/compose.js";
import { workspaceOwners } from "../workspaces/members.js";

/**
 * Disables an endpoint whose run of failed deliveries reached the limit, and mails the
 * workspace's owners once (the conditional update lets one instance do it).
 */
export async function disableFailing(trx: Kysely<Database>, ctx: Context, endpointId: string): Promise<void> {
  const now = isoNow(ctx.clock);
  const result = await trx
    .updateTable("webhookEndpoints")
    .set({ enabled: 0, disabledReason: "failing", disabledAt: now, updatedAt: now })
    .where("id", "=", endpointId)
    .where("enabled", "=", 1)
    .where("consecutiveFailures", ">=", ctx.config.webhookDisableAfter)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return;
  const endpoint = await trx
    .selectFrom("webhookEndpoints as e")
    .innerJoin("apps as a", "a.id", "e.appId")
    .select(["e.url", "e.consecutiveFailures", "a.id as appId", "a.name as appName", "a.workspaceId"])
    .where("e.id", "=", endpointId)
    .executeTakeFirstOrThrow();
  const owners = await workspaceOwners(trx, endpoint.workspaceId);
  const settings = `${publicBase(ctx.config)}/admin/w/${endpoint.workspaceId}/a/${endpoint.appId}/webhooks`;
  const host = new URL(publicBase(ctx.config)).hostname;
  const jobs = owners.map((owner) => ({
    kind: "mail",
    refId: endpointId,
    dedupeKey: `webhook-disabled:${endpointId}:${now}:${owner.id}`,
    payload: {
      subscriptionId: null,
      requireStatus: null,
      message: composeMail({
        to: owner.email,
        subject: `${oneLine(endpoint.appName)}: a webhook endpoint was disabled`,
        paragraphs: [
          `Tidings disabled the webhook endpoint ${endpoint.url} of ${oneLine(endpoint.appName)}: its last ${endpoint.consecutiveFailures} deliveries failed every attempt.`,
          "Fix the receiver, then enable the endpoint again and redeliver what it missed from its delivery log.",
        ],
        action: { label: "Open the webhook settings", url: settings },
        messageId: `webhook-disabled.${endpointId}.${Date.parse(now)}.${owner.id}@${host}`,
      }),
    },
  }));
  await enqueueJobs(trx, ctx.clock, jobs);
}
