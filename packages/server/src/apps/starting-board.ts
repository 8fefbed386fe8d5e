import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";

/** The board every app starts with; an app's existing requests were placed on it by migration 0026. */
export const DEFAULT_BOARD = { name: "Feature requests", slug: "feature-requests" } as const;

/** A new app's one board: public, the default, holding every request until the team adds others. */
export async function createDefaultBoard(trx: Kysely<Database>, clock: Clock, appId: string): Promise<void> {
  const now = isoNow(clock);
  await trx
    .insertInto("boards")
    .values({
      id: newId("brd", clock.now()),
      appId,
      name: DEFAULT_BOARD.name,
      slug: DEFAULT_BOARD.slug,
      description: "",
      position: 0,
      visibility: "public",
      accessRule: null,
      isDefault: 1,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
}
