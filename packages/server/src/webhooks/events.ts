import type { RecordField, WebhookEventType } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { recordFieldsOf } from "../custom-fields/record-fields.js";
import { newId } from "../ids.js";
import { enqueueJobs } from "../jobs/queue.js";
import { WEBHOOK_RETRY_DELAYS_MS } from "./retry.js";

/** Version of the event envelope; a breaking change of any payload bumps it. */
export const WEBHOOK_EVENT_VERSION = 1;

/** The test event of "send test event": sent to one endpoint whatever events it chose. */
export type WebhookEventName = WebhookEventType | "webhook.test";

/**
 * An event as recorded in the write's transaction: the envelope receivers get in the `standard`
 * format (links are added when it is sent, from `PUBLIC_URL`), and what Slack and Discord
 * messages are rendered from.
 */
export interface WebhookEvent {
  type: WebhookEventName;
  version: number;
  id: string;
  timestamp: string;
  app: { id: string; key: string; name: string };
  data: Record<string, unknown>;
}

/** A request as payloads carry it. */
export interface RequestSnapshot {
  id: string;
  title: string;
  description: string;
  status: { id: string; name: string; kind: string } | null;
  voteCount: number;
  commentCount: number;
  mergedIntoId: string | null;
  createdAt: string;
  /** The board it is on; a private board's requests are sent to `standard` endpoints only. */
  board: { id: string; slug: string; name: string; visibility: "public" | "private" };
}

/** The job kind that sends one delivery. */
export const WEBHOOK_JOB = "webhook";

/**
 * A request as it stands in the transaction, or undefined when the public cannot see it (pending
 * or declined): receivers only hear about approved requests.
 */
export async function requestSnapshot(trx: Kysely<Database>, id: string): Promise<RequestSnapshot | undefined> {
  const row = await trx
    .selectFrom("featureRequests as fr")
    .leftJoin("boardColumns as c", "c.id", "fr.columnId")
    .innerJoin("boards as b", "b.id", "fr.boardId")
    .select([
      "fr.id",
      "fr.title",
      "fr.description",
      "fr.moderation",
      "fr.voteCount",
      "fr.commentCount",
      "fr.mergedIntoId",
      "fr.createdAt",
      "fr.boardId",
      "c.id as columnId",
      "c.name as columnName",
      "c.kind as columnKind",
      "b.slug as boardSlug",
      "b.name as boardName",
      "b.visibility as boardVisibility",
    ])
    .where("fr.id", "=", id)
    .executeTakeFirst();
  if (row === undefined || row.moderation !== "approved") return undefined;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.columnId === null ? null : { id: row.columnId, name: row.columnName ?? "", kind: row.columnKind ?? "" },
    voteCount: Number(row.voteCount),
    commentCount: Number(row.commentCount),
    mergedIntoId: row.mergedIntoId,
    createdAt: row.createdAt,
    board: { id: row.boardId, slug: row.boardSlug, name: row.boardName, visibility: row.boardVisibility },
  };
}

/** A request's custom field values as payloads carry them (the console record's `fields`). */
async function requestFields(trx: Kysely<Database>, appId: string, featureRequestId: string): Promise<RecordField[]> {
  const row = await trx.selectFrom("featureRequests").select(["appId", "customFields"]).where("id", "=", featureRequestId).executeTakeFirst();
  return row === undefined ? [] : (await recordFieldsOf(trx, [appId]))(row);
}

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

/**
 * Queues the webhook of a request event (from the request's event log): `created` (approved
 * at once) and `approved` → `request.created`, `moved` → `request.status_changed`, `merged` (the
 * duplicate's side) → `request.merged`, `deleted` → `request.deleted`.
 */
export async function queueRequestWebhook(
  trx: Kysely<Database>,
  clock: Clock,
  event: { featureRequestId: string; appId: string; type: string; actor: string | null; data: Record<string, unknown> },
): Promise<void> {
  const request = () => requestSnapshot(trx, event.featureRequestId);
  // A change made through an integration (`integration:github`) is the team's, made where it works.
  const team = event.actor?.startsWith("user:") === true || event.actor?.startsWith("integration:") === true || event.actor === "admin";
  const actor = team ? "team" : event.actor === null ? null : "end_user";
  switch (event.type) {
    case "created":
    case "approved":
      return queueWebhookEvent(trx, clock, event.appId, "request.created", async () => {
        const snapshot = await request();
        return snapshot === undefined ? undefined : { request: { ...snapshot, fields: await requestFields(trx, event.appId, event.featureRequestId) } };
      });
    case "moved":
      return queueWebhookEvent(trx, clock, event.appId, "request.status_changed", async () => {
        const snapshot = await request();
        if (snapshot === undefined) return undefined;
        const from = typeof event.data.fromColumnId === "string" ? event.data.fromColumnId : null;
        const previous = from === null ? undefined : await trx.selectFrom("boardColumns").select(["id", "name", "kind"]).where("id", "=", from).executeTakeFirst();
        return { request: snapshot, previousStatus: previous ?? null, actor };
      });
    case "merged":
      if (typeof event.data.intoId !== "string") return;
      return queueWebhookEvent(trx, clock, event.appId, "request.merged", async () => {
        const snapshot = await request();
        const into = await requestSnapshot(trx, event.data.intoId as string);
        return snapshot === undefined || into === undefined ? undefined : { request: snapshot, into, actor };
      });
    case "deleted":
      return queueWebhookEvent(trx, clock, event.appId, "request.deleted", async () => {
        const snapshot = await request();
        return snapshot === undefined ? undefined : { request: snapshot, actor };
      });
    default:
      return;
  }
}
