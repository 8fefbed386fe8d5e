import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";
import { queueRequestWebhook } from "../webhooks/request-webhooks.js";
import { noticesForEvent } from "./notices.js";

/** What happened to a feature request; the changelog notifies voters from `shipped`. */
export type FeatureRequestEventType =
  | "created"
  | "approved"
  | "declined"
  | "moved"
  | "version_changed"
  | "board_changed"
  | "merged"
  | "shipped"
  | "edited"
  | "deleted";

/**
 * Records an event inside the caller's transaction, with the webhook deliveries it causes and the
 * notices its request's followers get (see `noticesForEvent`): they commit or roll back with the
 * change itself.
 */
export async function recordEvent(
  trx: Kysely<Database>,
  clock: Clock,
  event: { featureRequestId: string; appId: string; type: FeatureRequestEventType; actor: string | null; data?: Record<string, unknown> },
): Promise<void> {
  const id = newId("evt", clock.now());
  await noticesForEvent(trx, clock, { id, featureRequestId: event.featureRequestId, appId: event.appId, type: event.type, data: event.data ?? {} });
  await trx
    .insertInto("featureRequestEvents")
    .values({
      id,
      featureRequestId: event.featureRequestId,
      appId: event.appId,
      type: event.type,
      data: JSON.stringify(event.data ?? {}),
      actor: event.actor,
      createdAt: isoNow(clock),
    })
    .execute();
  await queueRequestWebhook(trx, clock, { ...event, data: event.data ?? {} });
}

/** Logs `board_changed` (`{fromBoardId, toBoardId}`) on each request that changed board, as its history and exports show. */
export async function recordBoardMoves(
  trx: Kysely<Database>,
  clock: Clock,
  move: { appId: string; toBoardId: string; moves: ReadonlyArray<{ id: string; fromBoardId: string }>; actor: string },
): Promise<void> {
  for (const m of move.moves) {
    await recordEvent(trx, clock, { featureRequestId: m.id, appId: move.appId, type: "board_changed", actor: move.actor, data: { fromBoardId: m.fromBoardId, toBoardId: move.toBoardId } });
  }
}
