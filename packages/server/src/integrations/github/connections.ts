import { randomBytes } from "node:crypto";
import { GITHUB_API_BASE_URL, type ConnectGithubBody, type GithubBrokenReason, type GithubConnection, type GithubConnectionPatch } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../../clock.js";
import type { Config } from "../../config.js";
import type { Database, GithubConnectionsTable } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../ids.js";
import { publicBase } from "../../mail/compose.js";
import { listColumns, type ColumnRow } from "../../roadmap/columns.js";
import { checkWebhookUrl, RefusedAddressError, type WebhookAllowList } from "../../webhooks/address-guard.js";

export type GithubConnectionRow = Selectable<GithubConnectionsTable>;

/** A label and the column (id) it moves a request to. */
export interface LabelColumn {
  label: string;
  columnId: string;
}

function fieldError(field: string, message: string): ApiError {
  return new ApiError("validation_failed", { message, details: { formErrors: [], fieldErrors: { [field]: [message] } } });
}

/** A new webhook secret: 32 random bytes in hex, pasted into GitHub's webhook settings. */
export function newGithubWebhookSecret(): string {
  return randomBytes(32).toString("hex");
}

/** Where GitHub posts this connection's webhooks. */
export function githubWebhookUrl(config: Pick<Config, "publicUrl" | "port">, connectionId: string): string {
  return `${publicBase(config)}/api/v1/integrations/github/${connectionId}/webhook`;
}

/** The app's connection, or 404 `github_not_connected`. */
export async function findConnection(db: Kysely<Database>, appId: string): Promise<GithubConnectionRow> {
  const row = await db.selectFrom("githubConnections").selectAll().where("appId", "=", appId).executeTakeFirst();
  if (row === undefined) throw new ApiError("github_not_connected");
  return row;
}

/** Refuses a broken connection: 409 `github_connection_broken`. */
export function requireActive(row: GithubConnectionRow): void {
  if (row.status !== "active") throw new ApiError("github_connection_broken", { details: { reason: row.brokenReason } });
}

/** The labels a connection maps, as stored. */
export function labelColumnsOf(row: Pick<GithubConnectionRow, "labelColumns">): LabelColumn[] {
  return JSON.parse(row.labelColumns) as LabelColumn[];
}

/** The column an issue closed as completed moves a request to: the chosen one, else the app's first done column. */
export function closedColumnOf(row: Pick<GithubConnectionRow, "closedColumnId">, columns: readonly ColumnRow[]): ColumnRow | undefined {
  return columns.find((c) => c.id === row.closedColumnId) ?? columns.find((c) => c.kind === "done");
}

/** The column a label (case-insensitive) moves a request to, if the connection maps it. */
export function labelColumnOf(row: Pick<GithubConnectionRow, "labelColumns">, label: string, columns: readonly ColumnRow[]): ColumnRow | undefined {
  const mapped = labelColumnsOf(row).find((l) => l.label.toLowerCase() === label.toLowerCase());
  return mapped === undefined ? undefined : columns.find((c) => c.id === mapped.columnId);
}

/** A connection as the console shows it (without its token or webhook secret). */
export async function toGithubConnection(db: Kysely<Database>, config: Pick<Config, "publicUrl" | "port">, row: GithubConnectionRow): Promise<GithubConnection> {
  const columns = await listColumns(db, row.appId);
  const info = (column: ColumnRow | undefined) => (column === undefined ? null : { id: column.id, slug: column.slug, name: column.name });
  return {
    id: row.id,
    appId: row.appId,
    owner: row.owner,
    repo: row.repo,
    tokenHint: row.tokenHint,
    apiBaseUrl: row.apiBaseUrl,
    webhookUrl: githubWebhookUrl(config, row.id),
    mapping: {
      closed: info(closedColumnOf(row, columns)),
      reopened: info(columns.find((c) => c.id === row.reopenedColumnId)),
      labels: labelColumnsOf(row).flatMap((l) => {
        const column = info(columns.find((c) => c.id === l.columnId));
        return column === null ? [] : [{ label: l.label, column }];
      }),
    },
    status: row.status,
    brokenReason: row.brokenReason as GithubBrokenReason | null,
    brokenAt: row.brokenAt,
    pausedUntil: row.pausedUntil,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Checks an API base URL as it is saved: GitHub's own passes, any other must be an allowed address. */
export async function acceptableApiBaseUrl(raw: string, allow: WebhookAllowList): Promise<string> {
  const trimmed = raw.trim().replace(/\/+$/, "");
  if (trimmed === GITHUB_API_BASE_URL) return trimmed;
  try {
    await checkWebhookUrl(trimmed, allow);
  } catch (error) {
    if (!(error instanceof RefusedAddressError)) throw error;
    throw fieldError("apiBaseUrl", error.reason);
  }
  return trimmed;
}

/** Column ids for a mapping given by id or slug; 404 `column_not_found` for anything not of the app. */
async function resolveMapping(
  db: Kysely<Database>,
  appId: string,
  input: Pick<GithubConnectionPatch, "closedColumn" | "reopenedColumn" | "labelColumns">,
): Promise<Partial<Pick<GithubConnectionRow, "closedColumnId" | "reopenedColumnId" | "labelColumns">>> {
  const columns = await listColumns(db, appId);
  const resolve = (field: string, ref: string): string => {
    const column = columns.find((c) => c.id === ref) ?? columns.find((c) => c.slug === ref);
    if (column === undefined) throw new ApiError("column_not_found", { message: `No column "${ref}" in this app`, details: { field } });
    return column.id;
  };
  const out: Partial<Pick<GithubConnectionRow, "closedColumnId" | "reopenedColumnId" | "labelColumns">> = {};
  if (input.closedColumn !== undefined) out.closedColumnId = input.closedColumn === null ? null : resolve("closedColumn", input.closedColumn);
  if (input.reopenedColumn !== undefined) out.reopenedColumnId = input.reopenedColumn === null ? null : resolve("reopenedColumn", input.reopenedColumn);
  if (input.labelColumns !== undefined) {
    const seen = new Set<string>();
    const labels: LabelColumn[] = [];
    for (const [i, entry] of input.labelColumns.entries()) {
      const label = entry.label.trim();
      if (label === "") throw fieldError(`labelColumns.${i}.label`, "Label must not be blank");
      if (seen.has(label.toLowerCase())) throw fieldError(`labelColumns.${i}.label`, `Label "${label}" is mapped twice`);
      seen.add(label.toLowerCase());
      labels.push({ label, columnId: resolve(`labelColumns.${i}.column`, entry.column) });
    }
    out.labelColumns = JSON.stringify(labels);
  }
  return out;
}

/** Connects an app (409 `github_already_connected` when it has a connection); answers the row with its webhook secret. */
export async function createConnection(trx: Kysely<Database>, clock: Clock, appId: string, input: ConnectGithubBody & { apiBaseUrl: string }): Promise<GithubConnectionRow> {
  const existing = await trx.selectFrom("githubConnections").select("id").where("appId", "=", appId).executeTakeFirst();
  if (existing !== undefined) throw new ApiError("github_already_connected");
  const mapping = await resolveMapping(trx, appId, input);
  const now = isoNow(clock);
  const row: GithubConnectionRow = {
    id: newId("ghc", clock.now()),
    appId,
    owner: input.owner,
    repo: input.repo,
    token: input.token,
    tokenHint: input.token.slice(-4),
    webhookSecret: newGithubWebhookSecret(),
    apiBaseUrl: input.apiBaseUrl,
    closedColumnId: mapping.closedColumnId ?? null,
    reopenedColumnId: mapping.reopenedColumnId ?? null,
    labelColumns: mapping.labelColumns ?? "[]",
    status: "active",
    brokenReason: null,
    brokenAt: null,
    pausedUntil: null,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("githubConnections").values(row).execute();
  return row;
}

/** Applies a patch; a new token repairs a broken connection (and forgets a rate-limit pause). */
export async function updateConnection(
  trx: Kysely<Database>,
  clock: Clock,
  row: GithubConnectionRow,
  patch: Omit<GithubConnectionPatch, "apiBaseUrl"> & { apiBaseUrl?: string | undefined },
): Promise<GithubConnectionRow> {
  const changes: Partial<GithubConnectionRow> = { ...(await resolveMapping(trx, row.appId, patch)), updatedAt: isoNow(clock) };
  if (patch.apiBaseUrl !== undefined) changes.apiBaseUrl = patch.apiBaseUrl;
  if (patch.token !== undefined) Object.assign(changes, { token: patch.token, tokenHint: patch.token.slice(-4), status: "active", brokenReason: null, brokenAt: null, pausedUntil: null });
  await trx.updateTable("githubConnections").set(changes).where("id", "=", row.id).execute();
  return { ...row, ...changes };
}

/** A new webhook secret; deliveries signed with the old one are refused from now on. */
export async function rotateWebhookSecret(trx: Kysely<Database>, clock: Clock, row: GithubConnectionRow): Promise<GithubConnectionRow> {
  const changes = { webhookSecret: newGithubWebhookSecret(), updatedAt: isoNow(clock) };
  await trx.updateTable("githubConnections").set(changes).where("id", "=", row.id).execute();
  return { ...row, ...changes };
}

/** Records GitHub's request to pause until `until` (never shortening a longer pause). */
export async function pauseConnection(db: Kysely<Database>, connectionId: string, until: Date): Promise<void> {
  const at = until.toISOString();
  await db
    .updateTable("githubConnections")
    .set({ pausedUntil: at })
    .where("id", "=", connectionId)
    .where((eb) => eb.or([eb("pausedUntil", "is", null), eb("pausedUntil", "<", at)]))
    .execute();
}
