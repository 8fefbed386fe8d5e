import type { Kysely } from "kysely";
import { isoNow } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { ColumnRow } from "../roadmap/columns.js";
import { acceptFields, editRequestFields } from "../custom-fields/form-values.js";
import { parseStoredValues } from "../custom-fields/values.js";
import { findBoardOfApp } from "../boards/boards.js";
import { findVersionOfApp } from "../roadmap/versions.js";
import { reindex, unindex } from "../search/search-index.js";
import { createFeatureRequest, type FeatureRequestRow, type NewRequestRow } from "./feature-requests.js";
import { applyModeration } from "./request-moderation.js";
import { fieldError, findRequestInWorkspace, triageEvent, type Triage } from "./triage.js";

/**
 * The column a body names by `columnId` or `columnSlug`, which must be a column of `appId`:
 * anything else (unknown, another app's, another workspace's) is 404 `column_not_found`.
 */
export async function resolveColumn(
  db: Kysely<Database>,
  appId: string,
  ref: { columnId?: string | undefined; columnSlug?: string | undefined },
): Promise<ColumnRow | undefined> {
  if (ref.columnId !== undefined && ref.columnSlug !== undefined) {
    throw fieldError("columnSlug", "Send columnId or columnSlug, not both");
  }
  if (ref.columnId === undefined && ref.columnSlug === undefined) return undefined;
  let query = db.selectFrom("boardColumns").selectAll().where("appId", "=", appId);
  query = ref.columnId !== undefined ? query.where("id", "=", ref.columnId) : query.where("slug", "=", ref.columnSlug ?? "");
  const column = await query.executeTakeFirst();
  if (column === undefined) throw new ApiError("column_not_found", { message: "Column not found in this request's app" });
  return column;
}

/** A version of `appId`, or 404 `version_not_found` (also for another app's version). */
async function resolveVersion(db: Kysely<Database>, appId: string, versionId: string): Promise<string> {
  return (await findVersionOfApp(db, appId, versionId, "Version not found in this request's app")).id;
}

function cleanTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed === "") throw fieldError("title", "Title must not be blank");
  return trimmed;
}

/** Records `shipped` the first time a request enters a `done` column; never twice. */
async function shipOnce(t: Triage, row: { id: string; appId: string }, column: ColumnRow): Promise<void> {
  if (column.kind !== "done") return;
  const shipped = await t.trx
    .selectFrom("featureRequestEvents")
    .select("id")
    .where("featureRequestId", "=", row.id)
    .where("type", "=", "shipped")
    .executeTakeFirst();
  if (shipped === undefined) await triageEvent(t, row, "shipped", { columnId: column.id });
}

/** Creates an approved request on behalf of the team (`createdByAdmin`). */
export async function createTeamRequest(
  t: Triage,
  appId: string,
  input: {
    title: string;
    description?: string | undefined;
    columnId?: string | undefined;
    columnSlug?: string | undefined;
    versionId?: string | undefined;
    boardId?: string | undefined;
    fields?: Readonly<Record<string, unknown>> | undefined;
  },
): Promise<NewRequestRow> {
  const title = cleanTitle(input.title);
  const board = input.boardId === undefined ? undefined : await findBoardOfApp(t.trx, appId, input.boardId);
  // The team answers the proposal form's fields as a proposer would, those of its board included.
  const fields = await acceptFields(t.trx, appId, "feature_request", board?.id, input.fields);
  const column = await resolveColumn(t.trx, appId, input);
  const versionId = input.versionId === undefined ? null : await resolveVersion(t.trx, appId, input.versionId);
  const row = await createFeatureRequest(t.trx, t.clock, t.dialect, {
    appId,
    title,
    description: (input.description ?? "").trim(),
    approved: true,
    requesterEndUserId: null,
    requesterName: null,
    requesterEmail: null,
    createdByAdmin: true,
    versionId,
    actor: t.actor,
    customFields: fields.values,
    ...(board === undefined ? {} : { boardId: board.id }),
    ...(column === undefined ? {} : { columnId: column.id }),
  });
  if (column !== undefined) await shipOnce(t, row, column);
  return row;
}

/** What `PUT …/feature-requests/{id}` may change. */
export interface TriagePatch {
  title?: string | undefined;
  description?: string | undefined;
  columnId?: string | undefined;
  columnSlug?: string | undefined;
  versionId?: string | null | undefined;
  approved?: boolean | undefined;
  /** Custom field values to change, by key (null clears one); the others keep theirs. */
  fields?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Edits a request and logs what changed: `edited` (title, description, `fields.<key>`), `moved` (and `shipped`
 * the first time it enters a done column), `version_changed`, `approved`/`declined`. Refreshes
 * the search index so public search sees new text and column/version names.
 */
export async function updateRequest(t: Triage, id: string, patch: TriagePatch): Promise<FeatureRequestRow> {
  const row = await findRequestInWorkspace(t.trx, t.workspaceId, id);
  const changes: Partial<NewRequestRow> = {};
  const edited: string[] = [];
  if (patch.title !== undefined) {
    const title = cleanTitle(patch.title);
    if (title !== row.title) {
      changes.title = title;
      edited.push("title");
    }
  }
  if (patch.description !== undefined) {
    const description = patch.description.trim();
    if (description !== row.description) {
      changes.description = description;
      edited.push("description");
    }
  }
  if (patch.fields !== undefined) {
    const fields = await editRequestFields(t.trx, row.appId, row.boardId, parseStoredValues(row.customFields), patch.fields);
    if (fields.changedKeys.length > 0) {
      changes.customFields = JSON.stringify(fields.values);
      edited.push(...fields.changedKeys.map((key) => `fields.${key}`));
    }
  }
  const column = await resolveColumn(t.trx, row.appId, patch);
  const moved = column !== undefined && column.id !== row.columnId;
  if (moved) changes.columnId = column.id;
  let versionId = row.versionId;
  if (patch.versionId !== undefined) versionId = patch.versionId === null ? null : await resolveVersion(t.trx, row.appId, patch.versionId);
  if (versionId !== row.versionId) changes.versionId = versionId;

  if (Object.keys(changes).length > 0) {
    await t.trx
      .updateTable("featureRequests")
      .set({ ...changes, updatedAt: isoNow(t.clock) })
      .where("id", "=", row.id)
      .execute();
  }
  if (edited.length > 0) await triageEvent(t, row, "edited", { fields: edited });
  if (moved) {
    await triageEvent(t, row, "moved", { fromColumnId: row.columnId, toColumnId: column.id });
    await shipOnce(t, row, column);
  }
  if (changes.versionId !== undefined) await triageEvent(t, row, "version_changed", { fromVersionId: row.versionId, toVersionId: versionId });
  if (patch.approved !== undefined) await applyModeration(t, row, patch.approved ? "approved" : "declined");
  // A merged duplicate stays out of public search.
  if (Object.keys(changes).length > 0 && row.mergedIntoId === null) await reindex(t.trx, t.dialect, row.id);
  return row;
}

/**
 * Deletes a request with its votes and comments (cascade) and logs `deleted` (events outlive
 * the request). Duplicates merged into it stay merged, so they stay hidden.
 */
export async function deleteRequest(t: Triage, id: string): Promise<FeatureRequestRow> {
  const row = await findRequestInWorkspace(t.trx, t.workspaceId, id);
  await triageEvent(t, row, "deleted", { title: row.title });
  await unindex(t.trx, t.dialect, row.id);
  await t.trx.deleteFrom("featureRequests").where("id", "=", row.id).execute();
  return row;
}
