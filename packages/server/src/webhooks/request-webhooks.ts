import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { queueWebhookEvent } from "./events.js";
import { requestFields, requestSnapshot } from "./request-snapshot.js";

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
