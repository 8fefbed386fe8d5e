import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { findFieldInWorkspace } from "./field-reads.js";
import type { CustomFieldRow } from "./field-rows.js";
import { repack } from "./field-order.js";

/**
 * "Deletes" a field: it is archived, never removed, so every value stored for it stays readable
 * (the console record and exports show it, marked archived). Forms no longer ask for it and its
 * key is free for a new field. Archiving an archived field changes nothing.
 */
export async function archiveField(trx: Kysely<Database>, clock: Clock, workspaceId: string, fieldId: string): Promise<CustomFieldRow> {
  const row = await findFieldInWorkspace(trx, workspaceId, fieldId);
  if (row.archived === 1) return row;
  await trx.updateTable("customFields").set({ archived: 1, updatedAt: isoNow(clock) }).where("id", "=", fieldId).execute();
  await repack(trx, row.appId);
  return { ...row, archived: 1 };
}

/** Archives the fields of a board being deleted (their values stay on the requests, which move). */
export async function archiveBoardFields(trx: Kysely<Database>, clock: Clock, boardId: string): Promise<void> {
  const rows = await trx.updateTable("customFields").set({ archived: 1, updatedAt: isoNow(clock) }).where("boardId", "=", boardId).where("archived", "=", 0).returning("appId").execute();
  const appIds = new Set(rows.map((r) => r.appId));
  for (const appId of appIds) await repack(trx, appId);
}
