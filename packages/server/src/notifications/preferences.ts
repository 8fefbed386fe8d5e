import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database, RequestNoticeKind } from "../db/schema.js";

/** What an address hears about the requests it follows; everything until it says otherwise. */
export interface NotificationPreferences {
  moves: boolean;
  replies: boolean;
  ships: boolean;
}

const EVERYTHING: NotificationPreferences = { moves: true, replies: true, ships: true };

/** The preference that lets a notice of `kind` through. */
export function preferenceOf(kind: RequestNoticeKind): keyof NotificationPreferences {
  return kind === "moved" ? "moves" : kind === "replied" ? "replies" : "ships";
}

/** The address's preferences in `appId` (everything when it never chose). */
export async function readPreferences(db: Kysely<Database>, appId: string, email: string): Promise<NotificationPreferences> {
  const row = await db.selectFrom("notificationPreferences").selectAll().where("appId", "=", appId).where("email", "=", email).executeTakeFirst();
  return row === undefined ? EVERYTHING : { moves: row.moves === 1, replies: row.replies === 1, ships: row.ships === 1 };
}

/** Stores the address's preferences in the caller's transaction. */
export async function writePreferences(trx: Kysely<Database>, clock: Clock, appId: string, email: string, prefs: NotificationPreferences): Promise<void> {
  const values = { moves: prefs.moves ? 1 : 0, replies: prefs.replies ? 1 : 0, ships: prefs.ships ? 1 : 0, updatedAt: isoNow(clock) } as const;
  await trx
    .insertInto("notificationPreferences")
    .values({ appId, email, ...values })
    .onConflict((oc) => oc.columns(["appId", "email"]).doUpdateSet(values))
    .execute();
}
