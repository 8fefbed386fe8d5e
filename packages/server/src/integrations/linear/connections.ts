import { LINEAR_API_URL, type ConnectLinearBody, type LinearBrokenReason, type LinearConnection, type LinearConnectionPatch } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../../clock.js";
import type { Config } from "../../config.js";
import type { Database, LinearConnectionsTable } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { publicBase } from "../../mail/compose.js";
import { listColumns, type ColumnRow } from "../../roadmap/columns.js";
import { checkWebhookUrl, RefusedAddressError, type WebhookAllowList } from "../../webhooks/address-guard.js";

export type LinearConnectionRow = Selectable<LinearConnectionsTable>;

/** The workflow state types that move a request. */
export type MappedStateType = "completed" | "started" | "canceled";

/** Where Linear posts this connection's webhooks. */
export function linearWebhookUrl(config: Pick<Config, "publicUrl" | "port">, connectionId: string): string {
  return `${publicBase(config)}/api/v1/integrations/linear/${connectionId}/webhook`;
}

/** The app's connection, or 404 `linear_not_connected`. */
export async function findLinearConnection(db: Kysely<Database>, appId: string): Promise<LinearConnectionRow> {
  const row = await db.selectFrom("linearConnections").selectAll().where("appId", "=", appId).executeTakeFirst();
  if (row === undefined) throw new ApiError("linear_not_connected");
  return row;
}

/**
 * The column an issue entering a state of `type` moves its request to: the chosen one, else
 * the default (completed: the first done column; started: the `in-progress` column; canceled: none).
 */
export function stateColumnOf(
  row: Pick<LinearConnectionRow, "completedColumnId" | "startedColumnId" | "canceledColumnId">,
  type: string,
  columns: readonly ColumnRow[],
): ColumnRow | undefined {
  switch (type) {
    case "completed":
      return columns.find((c) => c.id === row.completedColumnId) ?? columns.find((c) => c.kind === "done");
    case "started":
      return columns.find((c) => c.id === row.startedColumnId) ?? columns.find((c) => c.slug === "in-progress");
    case "canceled":
      return columns.find((c) => c.id === row.canceledColumnId);
    default:
      return undefined;
  }
}

/** A connection as the console shows it (without its API key or webhook secret). */
export async function toLinearConnection(db: Kysely<Database>, config: Pick<Config, "publicUrl" | "port">, row: LinearConnectionRow): Promise<LinearConnection> {
  const columns = await listColumns(db, row.appId);
  const info = (type: MappedStateType) => {
    const column = stateColumnOf(row, type, columns);
    return column === undefined ? null : { id: column.id, slug: column.slug, name: column.name };
  };
  return {
    id: row.id,
    appId: row.appId,
    teamId: row.teamId,
    keyHint: row.keyHint,
    apiUrl: row.apiUrl,
    webhookUrl: linearWebhookUrl(config, row.id),
    mapping: { completed: info("completed"), started: info("started"), canceled: info("canceled") },
    status: row.status,
    brokenReason: row.brokenReason as LinearBrokenReason | null,
    brokenAt: row.brokenAt,
    pausedUntil: row.pausedUntil,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Checks an endpoint as it is saved: Linear's own passes, any other must be an allowed address. */
export async function acceptableLinearApiUrl(raw: string, allow: WebhookAllowList): Promise<string> {
  const trimmed = raw.trim();
  if (trimmed === LINEAR_API_URL) return trimmed;
  try {
    await checkWebhookUrl(trimmed, allow);
  } catch (error) {
    if (!(error instanceof RefusedAddressError)) throw error;
    throw new ApiError("validation_failed", { message: error.reason, details: { formErrors: [], fieldErrors: { apiUrl: [error.reason] } } });
  }
  return trimmed;
}

type ColumnFields = Pick<LinearConnectionRow, "completedColumnId" | "startedColumnId" | "canceledColumnId">;

/** Column ids for a mapping given by id or slug (null: the default); 404 `column_not_found` for anything not of the app. */
async function resolveMapping(db: Kysely<Database>, appId: string, input: Pick<LinearConnectionPatch, "completedColumn" | "startedColumn" | "canceledColumn">): Promise<Partial<ColumnFields>> {
  const columns = await listColumns(db, appId);
  const resolve = (field: string, ref: string | null): string | null => {
    if (ref === null) return null;
    const column = columns.find((c) => c.id === ref) ?? columns.find((c) => c.slug === ref);
    if (column === undefined) throw new ApiError("column_not_found", { message: `No column "${ref}" in this app`, details: { field } });
    return column.id;
  };
  const out: Partial<ColumnFields> = {};
  if (input.completedColumn !== undefined) out.completedColumnId = resolve("completedColumn", input.completedColumn);
  if (input.startedColumn !== undefined) out.startedColumnId = resolve("startedColumn", input.startedColumn);
  if (input.canceledColumn !== undefined) out.canceledColumnId = resolve("canceledColumn", input.canceledColumn);
  return out;
}

/** Connects an app (409 `linear_already_connected` when it has a connection). Columns are named by id or slug. */
export async function createLinearConnection(trx: Kysely<Database>, clock: Clock, appId: string, input: ConnectLinearBody & { apiUrl: string }): Promise<LinearConnectionRow> {
  const existing = await trx.selectFrom("linearConnections").select("id").where("appId", "=", appId).executeTakeFirst();
  if (existing !== undefined) throw new ApiError("linear_already_connected");
  const mapping = await resolveMapping(trx, appId, input);
  const now = isoNow(clock);
  const row: LinearConnectionRow = {
    id: newId("lnc", clock.now()),
    appId,
    teamId: input.teamId,
    apiKey: input.apiKey,
    keyHint: input.apiKey.slice(-4),
    webhookSecret: input.webhookSecret,
    apiUrl: input.apiUrl,
    completedColumnId: mapping.completedColumnId ?? null,
    startedColumnId: mapping.startedColumnId ?? null,
    canceledColumnId: mapping.canceledColumnId ?? null,
    status: "active",
    brokenReason: null,
    brokenAt: null,
    pausedUntil: null,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("linearConnections").values(row).execute();
  return row;
}

/** Applies a patch; a new API key repairs a broken connection (and forgets a rate-limit pause). */
export async function updateLinearConnection(trx: Kysely<Database>, clock: Clock, row: LinearConnectionRow, patch: LinearConnectionPatch): Promise<LinearConnectionRow> {
  const changes: Partial<LinearConnectionRow> = { ...(await resolveMapping(trx, row.appId, patch)), updatedAt: isoNow(clock) };
  if (patch.webhookSecret !== undefined) changes.webhookSecret = patch.webhookSecret;
  if (patch.apiKey !== undefined) Object.assign(changes, { apiKey: patch.apiKey, keyHint: patch.apiKey.slice(-4), status: "active", brokenReason: null, brokenAt: null, pausedUntil: null });
  await trx.updateTable("linearConnections").set(changes).where("id", "=", row.id).execute();
  return { ...row, ...changes };
}

/** Records Linear's request to pause until `until` (never shortening a longer pause). */
export async function pauseLinearConnection(db: Kysely<Database>, connectionId: string, until: Date): Promise<void> {
  const at = until.toISOString();
  await db
    .updateTable("linearConnections")
    .set({ pausedUntil: at })
    .where("id", "=", connectionId)
    .where((eb) => eb.or([eb("pausedUntil", "is", null), eb("pausedUntil", "<", at)]))
    .execute();
}
