import type { ModerationState } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { ColumnRow } from "../roadmap/columns.js";
import { acceptFields, editRequestFields } from "../custom-fields/form-values.js";
import { parseStoredValues } from "../custom-fields/values.js";
import { findBoardOfApp } from "../boards/boards.js";
import { findVersionOfApp } from "../roadmap/versions.js";
import { moveCommentCount } from "./comments.js";
import { recordEvent, type FeatureRequestEventType } from "./events.js";
import { moveFollowers } from "./followers.js";
import { reindex, unindex } from "../search/search-index.js";
import { createFeatureRequest, lockRequests, recountComments, recountVotes, type FeatureRequestRow } from "./feature-requests.js";

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

function fieldError(field: string, message: string): ApiError {
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

async function event(t: Triage, row: { id: string; appId: string }, type: FeatureRequestEventType, data: Record<string, unknown> = {}) {
  await recordEvent(t.trx, t.clock, { featureRequestId: row.id, appId: row.appId, type, actor: t.actor, data });
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
  if (shipped === undefined) await event(t, row, "shipped", { columnId: column.id });
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
): Promise<FeatureRequestRow> {
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

/**
 * Moves a request to a moderation state, stamping `approvedAt` on approval and logging
 * `approved`/`declined`. Answers false (and writes nothing) when it is already there.
 */
async function applyModeration(t: Triage, row: FeatureRequestRow, state: Exclude<ModerationState, "pending">): Promise<boolean> {
  if (row.moderation === state) return false;
  const now = isoNow(t.clock);
  await t.trx
    .updateTable("featureRequests")
    .set({ moderation: state, approvedAt: state === "approved" ? now : null, updatedAt: now })
    .where("id", "=", row.id)
    .execute();
  // Public search finds approved requests only: the index learns the new state at once.
  await reindex(t.trx, t.dialect, row.id);
  await event(t, row, state, { from: row.moderation });
  return true;
}

/** Approves or declines one request of the workspace. */
export async function moderate(t: Triage, id: string, state: "approved" | "declined"): Promise<FeatureRequestRow> {
  const row = await findRequestInWorkspace(t.trx, t.workspaceId, id);
  await applyModeration(t, row, state);
  return row;
}

/**
 * Approves or declines many requests at once. Every id must be a request of the workspace
 * (else 404 and nothing changes); the answer lists those whose state changed.
 */
export async function moderateMany(
  t: Triage,
  ids: readonly string[],
  state: "approved" | "declined",
): Promise<{ updatedIds: string[]; appIds: string[] }> {
  const unique = [...new Set(ids)];
  const rows = await t.trx
    .selectFrom("featureRequests as fr")
    .innerJoin("apps as a", "a.id", "fr.appId")
    .selectAll("fr")
    .where("fr.id", "in", unique)
    .where("a.workspaceId", "=", t.workspaceId)
    .execute();
  if (rows.length !== unique.length) {
    const found = new Set(rows.map((r) => r.id));
    throw new ApiError("feature_request_not_found", { details: { missingIds: unique.filter((id) => !found.has(id)) } });
  }
  const updatedIds: string[] = [];
  for (const id of unique) {
    const row = rows.find((r) => r.id === id);
    if (row !== undefined && (await applyModeration(t, row, state))) updatedIds.push(id);
  }
  return { updatedIds, appIds: [...new Set(rows.map((r) => r.appId))] };
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
  const changes: Partial<FeatureRequestRow> = {};
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
  if (edited.length > 0) await event(t, row, "edited", { fields: edited });
  if (moved) {
    await event(t, row, "moved", { fromColumnId: row.columnId, toColumnId: column.id });
    await shipOnce(t, row, column);
  }
  if (changes.versionId !== undefined) await event(t, row, "version_changed", { fromVersionId: row.versionId, toVersionId: versionId });
  if (patch.approved !== undefined) await applyModeration(t, row, patch.approved ? "approved" : "declined");
  // A merged duplicate stays out of public search.
  if (Object.keys(changes).length > 0 && row.mergedIntoId === null) await reindex(t.trx, t.dialect, row.id);
  return row;
}

/**
 * Merges duplicate `id` into `intoId` (same app, not the same, neither already merged): votes
 * move over counted once per end user, imported votes, comments and followers move (see
 * `moveFollowers`), duplicates previously
 * merged into `id` now point at `intoId`, both counts are recomputed, both requests log
 * `merged`, and the duplicate leaves the search index.
 */
export async function mergeRequests(t: Triage, id: string, intoId: string): Promise<{ appId: string }> {
  if (id === intoId) throw fieldError("intoId", "A request cannot be merged into itself");
  // Both rows, against votes and comments racing in while they move and are recounted.
  await lockRequests(t.trx, t.dialect, [id, intoId]);
  const duplicate = await findRequestInWorkspace(t.trx, t.workspaceId, id);
  const target = await findRequestInWorkspace(t.trx, t.workspaceId, intoId);
  if (duplicate.mergedIntoId !== null) throw fieldError("id", "This request is already merged into another one");
  if (target.appId !== duplicate.appId) throw fieldError("intoId", "Requests of different apps cannot be merged");
  if (target.mergedIntoId !== null) throw fieldError("intoId", "The target is itself merged into another request");

  const votesOnTarget = t.trx.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", target.id);
  await t.trx.deleteFrom("featureRequestVotes").where("featureRequestId", "=", duplicate.id).where("endUserId", "in", votesOnTarget).execute();
  await t.trx.updateTable("featureRequestVotes").set({ featureRequestId: target.id }).where("featureRequestId", "=", duplicate.id).execute();
  await t.trx.updateTable("featureRequestComments").set({ featureRequestId: target.id }).where("featureRequestId", "=", duplicate.id).execute();
  // Feedback linked to the duplicate is evidence for the target (its votes moved above, still credited to the links).
  await t.trx.updateTable("submissions").set({ featureRequestId: target.id }).where("featureRequestId", "=", duplicate.id).execute();
  await t.trx.updateTable("featureRequests").set({ mergedIntoId: target.id }).where("mergedIntoId", "=", duplicate.id).execute();
  const now = isoNow(t.clock);
  await moveFollowers(t.trx, duplicate.id, target.id, now);
  await t.trx
    .updateTable("featureRequests")
    .set({ mergedIntoId: target.id, importedVotes: 0, updatedAt: now })
    .where("id", "=", duplicate.id)
    .execute();
  await t.trx
    .updateTable("featureRequests")
    .set({ importedVotes: target.importedVotes + duplicate.importedVotes, updatedAt: now })
    .where("id", "=", target.id)
    .execute();
  for (const fr of [duplicate.id, target.id]) {
    await recountVotes(t.trx, fr);
    await recountComments(t.trx, fr);
  }
  await event(t, duplicate, "merged", { intoId: target.id });
  await event(t, target, "merged", { fromId: duplicate.id });
  await unindex(t.trx, t.dialect, duplicate.id);
  return { appId: target.appId };
}

/**
 * Deletes a request with its votes and comments (cascade) and logs `deleted` (events outlive
 * the request). Duplicates merged into it stay merged, so they stay hidden.
 */
export async function deleteRequest(t: Triage, id: string): Promise<FeatureRequestRow> {
  const row = await findRequestInWorkspace(t.trx, t.workspaceId, id);
  await event(t, row, "deleted", { title: row.title });
  await unindex(t.trx, t.dialect, row.id);
  await t.trx.deleteFrom("featureRequests").where("id", "=", row.id).execute();
  return row;
}

/** A comment of the workspace with its request's app, or 404 `comment_not_found`. */
async function findCommentInWorkspace(db: Kysely<Database>, workspaceId: string, commentId: string) {
  const row = await db
    .selectFrom("featureRequestComments as cm")
    .innerJoin("featureRequests as fr", "fr.id", "cm.featureRequestId")
    .innerJoin("apps as a", "a.id", "fr.appId")
    .select(["cm.id", "cm.featureRequestId", "cm.isHidden", "fr.appId"])
    .where("cm.id", "=", commentId)
    .where("a.workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("comment_not_found");
  return row;
}

/**
 * The comment with its request locked (see `lockRequests`): read again after the lock, since a
 * merge may have moved it to another request meanwhile; then its request and visibility hold
 * until the transaction ends.
 */
async function lockedComment(t: Triage, commentId: string) {
  let comment = await findCommentInWorkspace(t.trx, t.workspaceId, commentId);
  for (;;) {
    await lockRequests(t.trx, t.dialect, [comment.featureRequestId]);
    const current = await findCommentInWorkspace(t.trx, t.workspaceId, commentId);
    if (current.featureRequestId === comment.featureRequestId) return current;
    comment = current;
  }
}

/** Hides or shows a comment; the request's visible count moves only when the comment's state does. */
export async function setCommentHidden(t: Triage, commentId: string, isHidden: boolean): Promise<{ appId: string }> {
  const comment = await lockedComment(t, commentId);
  if ((comment.isHidden === 1) === isHidden) return comment;
  await t.trx
    .updateTable("featureRequestComments")
    .set({ isHidden: isHidden ? 1 : 0, updatedAt: isoNow(t.clock) })
    .where("id", "=", comment.id)
    .execute();
  await moveCommentCount(t.trx, comment.featureRequestId, isHidden ? -1 : 1);
  return comment;
}

/** Deletes one comment (its replies stay, still naming it as parent); a visible one leaves the count. */
export async function deleteComment(t: Triage, commentId: string): Promise<{ appId: string }> {
  const comment = await lockedComment(t, commentId);
  await t.trx.deleteFrom("featureRequestComments").where("id", "=", comment.id).execute();
  if (comment.isHidden === 0) await moveCommentCount(t.trx, comment.featureRequestId, -1);
  return comment;
}
