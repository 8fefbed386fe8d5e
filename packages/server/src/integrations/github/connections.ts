import { GITHUB_API_BASE_URL, type ConnectGithubBody, type GithubAppCredentials, type GithubBrokenReason, type GithubConnection, type GithubConnectionPatch } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../../clock.js";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import { listColumns } from "../../roadmap/columns.js";
import type { WebhookAllowList } from "../../webhooks/address-guard.js";
import type { TrackerConnectionRow } from "../trackers/adapter.js";
import {
  acceptableApiUrl,
  columnInfo,
  type ConnectionChanges,
  columnResolver,
  fieldError,
  insertTrackerConnection,
  newWebhookSecret,
  trackerWebhookUrl,
  updateTrackerConnection,
} from "../trackers/connections.js";
import { githubAdapter, isAppInstallation, repositoryOf } from "./adapter.js";
import { checkPrivateKey } from "./app-auth.js";
import { closedColumnOf, githubMappingOf, type GithubMapping, type LabelColumn } from "./mapping.js";

/** Where GitHub posts this connection's webhooks. */
export function githubWebhookUrl(config: Pick<Config, "publicUrl" | "port">, connectionId: string): string {
  return trackerWebhookUrl(config, githubAdapter, connectionId);
}

/** A connection as the console shows it (without its token or webhook secret). */
export async function toGithubConnection(db: Kysely<Database>, config: Pick<Config, "publicUrl" | "port">, row: TrackerConnectionRow): Promise<GithubConnection> {
  const columns = await listColumns(db, row.appId);
  const mapping = githubMappingOf(row);
  return {
    id: row.id,
    appId: row.appId,
    ...repositoryOf(row),
    auth: isAppInstallation(row) ? "app" : "token",
    tokenHint: row.credentialHint ?? "",
    githubAppId: row.githubAppId,
    installationId: row.githubInstallationId,
    apiBaseUrl: row.apiUrl,
    webhookUrl: githubWebhookUrl(config, row.id),
    mapping: {
      closed: columnInfo(closedColumnOf(mapping, columns)),
      reopened: columnInfo(columns.find((c) => c.id === mapping.reopenedColumnId)),
      labels: mapping.labelColumns.flatMap((l) => {
        const column = columnInfo(columns.find((c) => c.id === l.columnId));
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
export function acceptableApiBaseUrl(raw: string, allow: WebhookAllowList): Promise<string> {
  return acceptableApiUrl(raw, GITHUB_API_BASE_URL, "apiBaseUrl", allow);
}

/** The mapping with a patch applied; columns named by id or slug, 404 `column_not_found` for anything not of the app. */
async function mappingWith(db: Kysely<Database>, appId: string, mapping: GithubMapping, input: Pick<GithubConnectionPatch, "closedColumn" | "reopenedColumn" | "labelColumns">): Promise<GithubMapping> {
  const resolve = await columnResolver(db, appId);
  const out = { ...mapping };
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
    out.labelColumns = labels;
  }
  return out;
}

/**
 * How a connection reaches GitHub, from a body's `token` or `githubApp` (at most one; one when
 * `required`): the columns to store, or undefined when the body names neither. 400 `validation_failed` otherwise.
 */
function credentialsOf(input: { token?: string | undefined; githubApp?: GithubAppCredentials | undefined }, required: boolean): ConnectionChanges | undefined {
  if (input.token !== undefined && input.githubApp !== undefined) throw fieldError("githubApp", "Give a token or GitHub App credentials, not both");
  if (input.token !== undefined) return { credential: input.token, githubAppId: null, githubPrivateKey: null, githubInstallationId: null };
  if (input.githubApp !== undefined) {
    checkPrivateKey(input.githubApp.privateKey);
    return { credential: null, githubAppId: input.githubApp.appId, githubPrivateKey: input.githubApp.privateKey, githubInstallationId: input.githubApp.installationId };
  }
  if (required) throw fieldError("token", "Give a token or GitHub App credentials");
  return undefined;
}

const NO_MAPPING: GithubMapping = { closedColumnId: null, reopenedColumnId: null, labelColumns: [] };

/** Connects an app (409 `github_already_connected` when it has a connection); answers the row with its webhook secret. */
export async function createConnection(trx: Kysely<Database>, clock: Clock, appId: string, input: ConnectGithubBody & { apiBaseUrl: string }): Promise<TrackerConnectionRow> {
  const credentials = credentialsOf(input, true);
  const mapping = await mappingWith(trx, appId, NO_MAPPING, input);
  return insertTrackerConnection(trx, clock, githubAdapter, appId, {
    target: `${input.owner}/${input.repo}`,
    credential: null,
    ...credentials,
    webhookSecret: newWebhookSecret(),
    apiUrl: input.apiBaseUrl,
    mapping: JSON.stringify(mapping),
  });
}

/** Applies a patch; a new token or new GitHub App credentials repair a broken connection (and forget a rate-limit pause). */
export async function updateConnection(
  trx: Kysely<Database>,
  clock: Clock,
  row: TrackerConnectionRow,
  patch: Omit<GithubConnectionPatch, "apiBaseUrl"> & { apiBaseUrl?: string | undefined },
): Promise<TrackerConnectionRow> {
  const credentials = credentialsOf(patch, false);
  const mapping = await mappingWith(trx, row.appId, githubMappingOf(row), patch);
  return updateTrackerConnection(
    trx,
    clock,
    row,
    { mapping: JSON.stringify(mapping), ...(patch.apiBaseUrl === undefined ? {} : { apiUrl: patch.apiBaseUrl }), ...credentials },
    credentials !== undefined,
  );
}

/** A new webhook secret; deliveries signed with the old one are refused from now on. */
export async function rotateWebhookSecret(trx: Kysely<Database>, clock: Clock, row: TrackerConnectionRow): Promise<TrackerConnectionRow> {
  const changes = { webhookSecret: newWebhookSecret(), updatedAt: isoNow(clock) };
  await trx.updateTable("trackerConnections").set(changes).where("id", "=", row.id).execute();
  return { ...row, ...changes };
}
