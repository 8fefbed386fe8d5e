import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { listFields } from "./field-reads.js";
import type { CustomFieldRow } from "./field-rows.js";

/** Closes the gaps archiving leaves in an app's order. */
export async function repack(trx: Kysely<Database>, appId: string): Promise<void> {
  for (const [position, row] of (await listFields(trx, appId)).entries()) {
    if (row.position !== position) await trx.updateTable("customFields").set({ position }).where("id", "=", row.id).execute();
  }
}

/** Sets the order of an app's active fields; `fieldIds` must list each of them exactly once. */
export async function reorderFields(trx: Kysely<Database>, clock: Clock, appId: string, fieldIds: readonly string[]): Promise<CustomFieldRow[]> {
  const existing = new Set((await listFields(trx, appId)).map((f) => f.id));
  const given = new Set(fieldIds);
  if (given.size !== fieldIds.length || given.size !== existing.size || [...given].some((id) => !existing.has(id))) {
    throw new ApiError("invalid_field_order");
  }
  const now = isoNow(clock);
  for (const [position, id] of fieldIds.entries()) {
    await trx.updateTable("customFields").set({ position, updatedAt: now }).where("id", "=", id).execute();
  }
  return listFields(trx, appId);
}
