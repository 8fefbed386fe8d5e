import { randomBytes } from "node:crypto";
import type { CreateWebhookBody, WebhookEndpoint, WebhookPatch } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database, WebhookEndpointsTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { checkWebhookUrl, RefusedAddressError, type WebhookAllowList } from "./address-guard.js";

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

/** A new signing secret: `whsec_` and 24 random bytes in base64, the Standard Webhooks form. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** An endpoint as the console shows it, without its secret. */
export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    appId: row.appId,
    url: row.url,
    format: row.format as WebhookEndpoint["format"],
    events: JSON.parse(row.events) as string[],
    enabled: row.enabled === 1,
    description: row.description,
    consecutiveFailures: Number(row.consecutiveFailures),
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Checks a URL as the console saves it: 400 `validation_failed` on `url` with the reason. */
export async function acceptableUrl(raw: string, allow: WebhookAllowList): Promise<string> {
  try {
    return (await checkWebhookUrl(raw.trim(), allow)).toString();
  } catch (error) {
    if (!(error instanceof RefusedAddressError)) throw error;
    throw new ApiError("validation_failed", { message: error.reason, details: { formErrors: [], fieldErrors: { url: [error.reason] } } });
  }
}

/** The app's endpoint, or 404 `webhook_not_found`. */
export async function findEndpoint(db: Kysely<Database>, appId: string, id: string): Promise<WebhookEndpointRow> {
  const row = await db.selectFrom("webhookEndpoints").selectAll().where("id", "=", id).where("appId", "=", appId).executeTakeFirst();
  if (row === undefined) throw new ApiError("webhook_not_found");
  return row;
}

/** The app's endpoints, oldest first. */
export async function listEndpoints(db: Kysely<Database>, appId: string): Promise<WebhookEndpointRow[]> {
  return db.selectFrom("webhookEndpoints").selectAll().where("appId", "=", appId).orderBy("createdAt").orderBy("id").execute();
}

/** Creates an endpoint (its URL already checked by {@link acceptableUrl}); answers it and its secret. */
export async function createEndpoint(
  trx: Kysely<Database>,
  clock: Clock,
  appId: string,
  input: CreateWebhookBody & { url: string },
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  const now = isoNow(clock);
  const row: WebhookEndpointRow = {
    id: newId("whk", clock.now()),
    appId,
    url: input.url,
    format: input.format ?? "standard",
    events: JSON.stringify(input.events),
    enabled: input.enabled === false ? 0 : 1,
    description: (input.description ?? "").trim(),
    secret: newWebhookSecret(),
    consecutiveFailures: 0,
    disabledReason: null,
    disabledAt: input.enabled === false ? now : null,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("webhookEndpoints").values(row).execute();
  return { row, secret: row.secret };
}

/** Applies a patch; enabling an endpoint clears its failure run, disabling stamps `disabledAt`. */
export async function updateEndpoint(trx: Kysely<Database>, clock: Clock, row: WebhookEndpointRow, patch: WebhookPatch & { url?: string }): Promise<WebhookEndpointRow> {
  const now = isoNow(clock);
  const changes: Partial<WebhookEndpointRow> = { updatedAt: now };
  if (patch.url !== undefined) changes.url = patch.url;
  if (patch.events !== undefined) changes.events = JSON.stringify(patch.events);
  if (patch.format !== undefined) changes.format = patch.format;
  if (patch.description !== undefined) changes.description = patch.description.trim();
  if (patch.enabled === true && row.enabled !== 1) Object.assign(changes, { enabled: 1, consecutiveFailures: 0, disabledReason: null, disabledAt: null });
  if (patch.enabled === false && row.enabled === 1) Object.assign(changes, { enabled: 0, disabledReason: null, disabledAt: now });
  await trx.updateTable("webhookEndpoints").set(changes).where("id", "=", row.id).execute();
  return { ...row, ...changes };
}

/** A new secret for the endpoint; the old one stops signing at once. */
export async function rotateEndpointSecret(trx: Kysely<Database>, clock: Clock, row: WebhookEndpointRow): Promise<WebhookEndpointRow> {
  const secret = newWebhookSecret();
  const updatedAt = isoNow(clock);
  await trx.updateTable("webhookEndpoints").set({ secret, updatedAt }).where("id", "=", row.id).execute();
  return { ...row, secret, updatedAt };
}
