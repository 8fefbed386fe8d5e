import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../../clock.js";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { publicBase } from "../../mail/compose.js";
import { listColumns, type ColumnRow } from "../../roadmap/columns.js";
import { checkWebhookUrl, RefusedAddressError, type WebhookAllowList } from "../../webhooks/address-guard.js";
import type { TrackerAdapter, TrackerConnectionRow } from "./adapter.js";

/** A 400 `validation_failed` naming one field. */
export function fieldError(field: string, message: string): ApiError {
  return new ApiError("validation_failed", { message, details: { formErrors: [], fieldErrors: { [field]: [message] } } });
}

/** A new webhook secret: 32 random bytes in hex. */
export function newWebhookSecret(): string {
  return randomBytes(32).toString("hex");
}

/** Where the tracker posts this connection's webhooks. */
export function trackerWebhookUrl(config: Pick<Config, "publicUrl" | "port">, adapter: Pick<TrackerAdapter, "provider">, connectionId: string): string {
  return `${publicBase(config)}/api/v1/integrations/${adapter.provider}/${connectionId}/webhook`;
}

/** The app's connection to the adapter's tracker, or 404 (`github_not_connected`, …). */
export async function findTrackerConnection(db: Kysely<Database>, adapter: Pick<TrackerAdapter, "provider" | "codes">, appId: string): Promise<TrackerConnectionRow> {
  const row = await db.selectFrom("trackerConnections").selectAll().where("appId", "=", appId).where("provider", "=", adapter.provider).executeTakeFirst();
  if (row === undefined) throw new ApiError(adapter.codes.notConnected);
  return row;
}

/** Checks an API URL as it is saved: the tracker's own passes, any other must be an allowed address. */
export async function acceptableApiUrl(raw: string, own: string, field: string, allow: WebhookAllowList): Promise<string> {
  const trimmed = field === "apiBaseUrl" ? raw.trim().replace(/\/+$/, "") : raw.trim();
  if (trimmed === own) return trimmed;
  try {
    await checkWebhookUrl(trimmed, allow);
  } catch (error) {
    if (!(error instanceof RefusedAddressError)) throw error;
    throw fieldError(field, error.reason);
  }
  return trimmed;
}

/** Resolves column references (id or slug) of one app; 404 `column_not_found` names the field of one that is not the app's. */
export async function columnResolver(db: Kysely<Database>, appId: string): Promise<(field: string, ref: string) => string> {
  const columns = await listColumns(db, appId);
  return (field, ref) => {
    const column = columns.find((c) => c.id === ref) ?? columns.find((c) => c.slug === ref);
    if (column === undefined) throw new ApiError("column_not_found", { message: `No column "${ref}" in this app`, details: { field } });
    return column.id;
  };
}

/** A column as a connection's view shows it. */
export function columnInfo(column: ColumnRow | undefined): { id: string; slug: string; name: string } | null {
  return column === undefined ? null : { id: column.id, slug: column.slug, name: column.name };
}

/** What a new connection is made of; the rest is the shared bookkeeping. */
export type NewConnection = Pick<TrackerConnectionRow, "target" | "credential" | "webhookSecret" | "apiUrl" | "mapping"> &
  Partial<Pick<TrackerConnectionRow, "githubAppId" | "githubPrivateKey" | "githubInstallationId">>;

/** Connects an app to the adapter's tracker (409 `github_already_connected`, … when it has a connection). */
export async function insertTrackerConnection(trx: Kysely<Database>, clock: Clock, adapter: TrackerAdapter, appId: string, input: NewConnection): Promise<TrackerConnectionRow> {
  const existing = await trx.selectFrom("trackerConnections").select("id").where("appId", "=", appId).where("provider", "=", adapter.provider).executeTakeFirst();
  if (existing !== undefined) throw new ApiError(adapter.codes.alreadyConnected);
  const now = isoNow(clock);
  const row: TrackerConnectionRow = {
    id: newId(adapter.ids.connection, clock.now()),
    provider: adapter.provider,
    appId,
    githubAppId: null,
    githubPrivateKey: null,
    githubInstallationId: null,
    ...input,
    credentialHint: input.credential === null ? null : input.credential.slice(-4),
    status: "active",
    brokenReason: null,
    brokenAt: null,
    pausedUntil: null,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("trackerConnections").values(row).execute();
  return row;
}

/** What a patch changes; a new credential repairs a broken connection (and forgets a rate-limit pause). */
export type ConnectionChanges = Partial<Pick<TrackerConnectionRow, "target" | "credential" | "webhookSecret" | "apiUrl" | "mapping" | "githubAppId" | "githubPrivateKey" | "githubInstallationId">>;

/** Applies changes to a connection; new credentials repair a broken one. */
export async function updateTrackerConnection(trx: Kysely<Database>, clock: Clock, row: TrackerConnectionRow, changes: ConnectionChanges, repaired: boolean): Promise<TrackerConnectionRow> {
  const set: Partial<TrackerConnectionRow> = { ...changes, updatedAt: isoNow(clock) };
  if (changes.credential !== undefined) set.credentialHint = changes.credential === null ? null : changes.credential.slice(-4);
  if (repaired) Object.assign(set, { status: "active", brokenReason: null, brokenAt: null, pausedUntil: null });
  await trx.updateTable("trackerConnections").set(set).where("id", "=", row.id).execute();
  return { ...row, ...set };
}

/** Disconnects an app from the adapter's tracker: its links and deliveries go with it. */
export async function deleteTrackerConnection(trx: Kysely<Database>, adapter: TrackerAdapter, appId: string): Promise<void> {
  const row = await findTrackerConnection(trx, adapter, appId);
  await trx.deleteFrom("trackerConnections").where("id", "=", row.id).execute();
}

/** Records the tracker's request to pause until `until` (never shortening a longer pause). */
export async function pauseTrackerConnection(db: Kysely<Database>, connectionId: string, until: Date): Promise<void> {
  const at = until.toISOString();
  await db
    .updateTable("trackerConnections")
    .set({ pausedUntil: at })
    .where("id", "=", connectionId)
    .where((eb) => eb.or([eb("pausedUntil", "is", null), eb("pausedUntil", "<", at)]))
    .execute();
}
