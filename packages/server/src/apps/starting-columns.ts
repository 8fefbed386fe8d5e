import type { ColumnKind } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";

/** The columns every new app starts with; the first and last are system columns. */
export const DEFAULT_COLUMNS: ReadonlyArray<{ name: string; slug: string; kind: ColumnKind; system: boolean; color: string }> = [
  { name: "Under review", slug: "under-review", kind: "pending_review", system: true, color: "#8b8fa3" },
  { name: "Planned", slug: "planned", kind: "normal", system: false, color: "#3b82f6" },
  { name: "In progress", slug: "in-progress", kind: "normal", system: false, color: "#f59e0b" },
  { name: "Shipped", slug: "shipped", kind: "done", system: true, color: "#22c55e" },
];

/**
 * Gives a new app its starting roadmap columns, inside the caller's transaction. It lives with
 * apps, not roadmap, because creating an app is part of apps: the roadmap, like every other
 * domain area, looks its app up here, so apps imports none of them.
 */
export async function createDefaultColumns(trx: Kysely<Database>, clock: Clock, appId: string): Promise<void> {
  const now = isoNow(clock);
  await trx
    .insertInto("boardColumns")
    .values(
      DEFAULT_COLUMNS.map((c, position) => ({
        id: newId("col", clock.now()),
        appId,
        name: c.name,
        slug: c.slug,
        position,
        isVisible: 1 as const,
        isSystem: c.system ? (1 as const) : (0 as const),
        kind: c.kind,
        color: c.color,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .execute();
}
