import type { WebhookEventType } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";
import { queueDelivery } from "./delivery-queue.js";
import { WEBHOOK_EVENT_VERSION, type WebhookEvent, type WebhookEventName } from "./event-envelope.js";
import type { RequestSnapshot } from "./request-snapshot.js";

/**
 * The app's enabled endpoints, as a subquery: a write that asks `exists` of it in its own
 * statement learns whether any webhook can be due without a read of its own (the common case,
 * an app without endpoints, then skips {@link queueWebhookEvent}).
 */
export function enabledEndpoints(db: Kysely<Database>, appId: string) {
  return db.selectFrom("webhookEndpoints").select("id").where("appId", "=", appId).where("enabled", "=", 1);
}

/** The app's enabled endpoints that want `type`. */
async function subscribedEndpoints(trx: Kysely<Database>, appId: string, type: WebhookEventName): Promise<{ id: string; format: string }[]> {
  const rows = await trx.selectFrom("webhookEndpoints").select(["id", "events", "format"]).where("appId", "=", appId).where("enabled", "=", 1).execute();
  return rows.filter((r) => type === "webhook.test" || (JSON.parse(r.events) as string[]).includes(type));
}

/**
 * Whether an event's data names a request on a private board. Slack and Discord messages are
 * posted to channels a community may read, so such events go to `standard` endpoints only (the
 * team's own signed receivers), never to a chat format.
 */
function concernsPrivateBoard(data: Record<string, unknown>): boolean {
  return [data.request, data.into].some((r) => (r as RequestSnapshot | undefined)?.board?.visibility === "private");
}

/** The app as an event names it. */
export async function eventApp(trx: Kysely<Database>, appId: string): Promise<WebhookEvent["app"]> {
  const app = await trx.selectFrom("apps").select(["id", "appKey", "name"]).where("id", "=", appId).executeTakeFirstOrThrow();
  return { id: app.id, key: app.appKey, name: app.name };
}

/**
 * Records an event for every enabled endpoint of the app that wants it, inside the caller's
 * transaction: the deliveries and their jobs commit with the write or not at all, so no event is
 * lost and none is sent for a write that rolled back. `data` is built only when some endpoint
 * wants the event (the common case, no endpoint, costs one indexed read); undefined skips it.
 *
 * @example
 * ```ts
 * await queueWebhookEvent(trx, clock, appId, "vote.added", async () => ({ request: await requestSnapshot(trx, id) }));
 * ```
 */
export async function queueWebhookEvent(
  trx: Kysely<Database>,
  clock: Clock,
  appId: string,
  type: WebhookEventType,
  data: () => Promise<Record<string, unknown> | undefined>,
): Promise<void> {
  const endpoints = await subscribedEndpoints(trx, appId, type);
  if (endpoints.length === 0) return;
  const payload = await data();
  if (payload === undefined) return;
  const receivers = concernsPrivateBoard(payload) ? endpoints.filter((e) => e.format === "standard") : endpoints;
  if (receivers.length === 0) return;
  const event: WebhookEvent = {
    type,
    version: WEBHOOK_EVENT_VERSION,
    id: newId("whe", clock.now()),
    timestamp: isoNow(clock),
    app: await eventApp(trx, appId),
    data: payload,
  };
  for (const endpoint of receivers) await queueDelivery(trx, clock, endpoint.id, event);
}
