import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { recordEvent, type FeatureRequestEventType } from "./events.js";
import type { FeatureRequestRow } from "./feature-requests.js";

/**
 * What every triage command works with: the transaction, the workspace it is confined to and
 * who acts (for the event log: `user:<id>` or `admin`).
 */
export interface Triage {
  trx: Kysely<Database>;
  clock: Clock;
  dialect: DialectName;
  workspaceId: string;
  actor: string;
}

/** 400 `validation_failed` naming one field of the body. */
export function fieldError(field: string, message: string): ApiError {
  return new ApiError("validation_failed", { message, details: { formErrors: [], fieldErrors: { [field]: [message] } } });
}

/** A request of the workspace, or 404 `feature_request_not_found` (other workspaces' included). */
export async function findRequestInWorkspace(db: Kysely<Database>, workspaceId: string, id: string): Promise<FeatureRequestRow> {
  const row = await db
    .selectFrom("featureRequests as fr")
    .innerJoin("apps as a", "a.id", "fr.appId")
    .selectAll("fr")
    .where("fr.id", "=", id)
    .where("a.workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("feature_request_not_found");
  return row;
}

/** Logs a request event with the command's actor. */
export async function triageEvent(t: Triage, row: { id: string; appId: string }, type: FeatureRequestEventType, data: Record<string, unknown> = {}) {
  await recordEvent(t.trx, t.clock, { featureRequestId: row.id, appId: row.appId, type, actor: t.actor, data });
}
