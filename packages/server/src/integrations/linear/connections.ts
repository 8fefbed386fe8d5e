import { LINEAR_API_URL, type ConnectLinearBody, type LinearBrokenReason, type LinearConnection, type LinearConnectionPatch } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Clock } from "../../clock.js";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import { listColumns } from "../../roadmap/columns.js";
import type { WebhookAllowList } from "../../webhooks/address-guard.js";
import type { TrackerConnectionRow } from "../trackers/adapter.js";
import { acceptableApiUrl, columnInfo, columnResolver, insertTrackerConnection, trackerWebhookUrl, updateTrackerConnection } from "../trackers/connections.js";
import { linearAdapter } from "./adapter.js";
import { linearMappingOf, stateColumnOf, type LinearMapping, type MappedStateType } from "./mapping.js";

/** Where Linear posts this connection's webhooks. */
export function linearWebhookUrl(config: Pick<Config, "publicUrl" | "port">, connectionId: string): string {
  return trackerWebhookUrl(config, linearAdapter, connectionId);
}

/** A connection as the console shows it (without its API key or webhook secret). */
export async function toLinearConnection(db: Kysely<Database>, config: Pick<Config, "publicUrl" | "port">, row: TrackerConnectionRow): Promise<LinearConnection> {
  const columns = await listColumns(db, row.appId);
  const mapping = linearMappingOf(row);
  const info = (type: MappedStateType) => columnInfo(stateColumnOf(mapping, type, columns));
  return {
    id: row.id,
    appId: row.appId,
    teamId: row.target,
    keyHint: row.credentialHint ?? "",
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
export function acceptableLinearApiUrl(raw: string, allow: WebhookAllowList): Promise<string> {
  return acceptableApiUrl(raw, LINEAR_API_URL, "apiUrl", allow);
}

/** The mapping with a patch applied; columns named by id or slug (null: the default), 404 `column_not_found` for anything not of the app. */
async function mappingWith(db: Kysely<Database>, appId: string, mapping: LinearMapping, input: Pick<LinearConnectionPatch, "completedColumn" | "startedColumn" | "canceledColumn">): Promise<LinearMapping> {
  const resolve = await columnResolver(db, appId);
  const ref = (field: string, value: string | null) => (value === null ? null : resolve(field, value));
  const out = { ...mapping };
  if (input.completedColumn !== undefined) out.completedColumnId = ref("completedColumn", input.completedColumn);
  if (input.startedColumn !== undefined) out.startedColumnId = ref("startedColumn", input.startedColumn);
  if (input.canceledColumn !== undefined) out.canceledColumnId = ref("canceledColumn", input.canceledColumn);
  return out;
}

const NO_MAPPING: LinearMapping = { completedColumnId: null, startedColumnId: null, canceledColumnId: null };

/** Connects an app (409 `linear_already_connected` when it has a connection). Columns are named by id or slug. */
export async function createLinearConnection(trx: Kysely<Database>, clock: Clock, appId: string, input: ConnectLinearBody & { apiUrl: string }): Promise<TrackerConnectionRow> {
  const mapping = await mappingWith(trx, appId, NO_MAPPING, input);
  return insertTrackerConnection(trx, clock, linearAdapter, appId, { target: input.teamId, credential: input.apiKey, webhookSecret: input.webhookSecret, apiUrl: input.apiUrl, mapping: JSON.stringify(mapping) });
}

/** Applies a patch; a new API key repairs a broken connection (and forgets a rate-limit pause). */
export async function updateLinearConnection(trx: Kysely<Database>, clock: Clock, row: TrackerConnectionRow, patch: LinearConnectionPatch): Promise<TrackerConnectionRow> {
  const mapping = await mappingWith(trx, row.appId, linearMappingOf(row), patch);
  return updateTrackerConnection(
    trx,
    clock,
    row,
    { mapping: JSON.stringify(mapping), ...(patch.webhookSecret === undefined ? {} : { webhookSecret: patch.webhookSecret }), ...(patch.apiKey === undefined ? {} : { credential: patch.apiKey }) },
    patch.apiKey !== undefined,
  );
}
