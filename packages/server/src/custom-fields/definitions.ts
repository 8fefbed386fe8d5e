import {
  MAX_FIELDS_PER_APP,
  type CreateCustomFieldBody,
  type CustomField,
  type CustomFieldForm,
  type CustomFieldLimits,
  type CustomFieldOption,
  type PublicCustomField,
  type UpdateCustomFieldBody,
} from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { CustomFieldsTable, Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { slugify, uniqueSlug } from "../slug.js";
import { fieldProblems, fieldShape } from "./shape.js";

export type CustomFieldRow = Selectable<CustomFieldsTable>;

function parsed<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

export function toCustomField(row: CustomFieldRow): CustomField {
  return {
    id: row.id,
    appId: row.appId,
    boardId: row.boardId,
    key: row.key,
    label: row.label,
    description: row.description,
    type: row.type,
    required: row.required === 1,
    appliesTo: parsed<CustomFieldForm[]>(row.appliesTo, []),
    options: parsed<CustomFieldOption[]>(row.options, []),
    limits: parsed<CustomFieldLimits>(row.limits, {}),
    position: row.position,
    archived: row.archived === 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toPublicCustomField(field: CustomField): PublicCustomField {
  const { key, label, description, type, required, appliesTo, options, limits, position } = field;
  return { key, label, description, type, required, appliesTo, options, limits, position };
}

/** An app's fields: the active ones by position, then (when asked) the archived ones. */
export function listFields(db: Kysely<Database>, appId: string, includeArchived = false): Promise<CustomFieldRow[]> {
  return (includeArchived ? everyField : activeFields).rows(db, { appId });
}

/**
 * {@link listFields}' two reads, prepared: every proposal and feedback reads the app's active
 * fields. They select every column, so on PostgreSQL they are not named statements (see
 * named-statements.ts).
 */
function fieldsOfApp(includeArchived: boolean) {
  return preparedQuery<{ appId: string }, CustomFieldRow>((db, p) => {
    const query = db.selectFrom("customFields").selectAll().where("appId", "=", p.appId);
    return (includeArchived ? query : query.where("archived", "=", 0)).orderBy("archived").orderBy("position").orderBy("id");
  });
}

const activeFields = fieldsOfApp(false);
const everyField = fieldsOfApp(true);

/** Every field of these apps, archived ones included, in {@link listFields} order, by app id. */
export async function fieldsOfApps(db: Kysely<Database>, appIds: readonly string[]): Promise<Map<string, CustomField[]>> {
  const out = new Map<string, CustomField[]>();
  const ids = [...new Set(appIds)];
  if (ids.length === 0) return out;
  const rows = await db.selectFrom("customFields").selectAll().where("appId", "in", ids).orderBy("archived").orderBy("position").orderBy("id").execute();
  for (const row of rows) {
    const list = out.get(row.appId) ?? [];
    list.push(toCustomField(row));
    out.set(row.appId, list);
  }
  return out;
}

/** The active fields the forms of a board ask for: the app-wide ones and the board's own, by position. */
export async function boardFields(db: Kysely<Database>, appId: string, boardId: string): Promise<CustomField[]> {
  const rows = await listFields(db, appId);
  return rows.map(toCustomField).filter((f) => f.boardId === null || f.boardId === boardId);
}

export async function findFieldInWorkspace(db: Kysely<Database>, workspaceId: string, fieldId: string): Promise<CustomFieldRow> {
  const row = await db
    .selectFrom("customFields")
    .innerJoin("apps", "apps.id", "customFields.appId")
    .selectAll("customFields")
    .where("customFields.id", "=", fieldId)
    .where("apps.workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("custom_field_not_found");
  return row;
}

/**
 * Where a field is asked: a board of its own app (404 `board_not_found` otherwise), and never
 * on feedback then, since feedback is sent to no board.
 */
async function checkPlacement(db: Kysely<Database>, appId: string, boardId: string | null, appliesTo: readonly CustomFieldForm[], boardChanged: boolean): Promise<void> {
  if (boardId === null) return;
  if (appliesTo.includes("feedback")) {
    throw fieldProblems({ appliesTo: ["Feedback goes to no board: a board's field applies to feature_request only"] });
  }
  if (!boardChanged) return;
  const board = await db.selectFrom("boards").select("id").where("id", "=", boardId).where("appId", "=", appId).executeTakeFirst();
  if (board === undefined) throw new ApiError("board_not_found");
}

/** The app's active fields, refused with `too_many_fields` when one more would pass the limit. */
async function roomForOneMore(trx: Kysely<Database>, appId: string): Promise<CustomFieldRow[]> {
  const active = await listFields(trx, appId);
  if (active.length >= MAX_FIELDS_PER_APP) throw new ApiError("too_many_fields", { details: { limit: MAX_FIELDS_PER_APP } });
  return active;
}

const nextPosition = (active: readonly CustomFieldRow[]) => active.reduce((max, f) => Math.max(max, f.position + 1), 0);

function cleanLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed === "") throw fieldProblems({ label: ["Must not be blank"] });
  return trimmed;
}

/** A key derived from a label: a slug that starts with a letter. */
function keyFrom(label: string): string {
  const slug = slugify(label, "field");
  return /^[a-z]/.test(slug) ? slug : `field-${slug}`.slice(0, 64).replace(/-+$/, "");
}

export async function createField(trx: Kysely<Database>, clock: Clock, appId: string, input: CreateCustomFieldBody): Promise<CustomFieldRow> {
  const label = cleanLabel(input.label);
  const shape = fieldShape(input.type, input.options, input.limits);
  const boardId = input.boardId ?? null;
  await checkPlacement(trx, appId, boardId, input.appliesTo, true);
  const active = await roomForOneMore(trx, appId);
  const taken = new Set(active.map((f) => f.key));
  if (input.key !== undefined && taken.has(input.key)) throw new ApiError("slug_taken", { message: "Another active field of the app has that key" });
  const now = isoNow(clock);
  const row: CustomFieldRow = {
    id: newId("fld", clock.now()),
    appId,
    boardId,
    key: input.key ?? uniqueSlug(keyFrom(label), taken),
    label,
    description: (input.description ?? "").trim(),
    type: input.type,
    required: input.required === true ? 1 : 0,
    appliesTo: JSON.stringify(input.appliesTo),
    options: JSON.stringify(shape.options),
    limits: JSON.stringify(shape.limits),
    position: nextPosition(active),
    archived: 0,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("customFields").values(row).execute();
  return row;
}

/**
 * Changes a field; its type and key stay. New options or limits are checked against the type
 * (values stored before are kept, even outside them). `archived: false` brings an archived
 * field back, last in the order, if its key is free and the app has room.
 */
export async function updateField(trx: Kysely<Database>, clock: Clock, workspaceId: string, fieldId: string, patch: UpdateCustomFieldBody): Promise<CustomFieldRow> {
  const current = await findFieldInWorkspace(trx, workspaceId, fieldId);
  const field = toCustomField(current);
  const restoring = patch.archived === false && current.archived === 1;
  const changes: Partial<CustomFieldRow> = { updatedAt: isoNow(clock) };
  if (patch.label !== undefined) changes.label = cleanLabel(patch.label);
  if (patch.description !== undefined) changes.description = patch.description.trim();
  if (patch.required !== undefined) changes.required = patch.required ? 1 : 0;
  if (patch.appliesTo !== undefined) changes.appliesTo = JSON.stringify(patch.appliesTo);
  if (patch.boardId !== undefined) changes.boardId = patch.boardId;
  if (patch.options !== undefined || patch.limits !== undefined) {
    const shape = fieldShape(field.type, patch.options ?? field.options, patch.limits ?? field.limits);
    changes.options = JSON.stringify(shape.options);
    changes.limits = JSON.stringify(shape.limits);
  }
  // A restored field's board may have been deleted since: it is checked again.
  const boardId = patch.boardId !== undefined ? patch.boardId : field.boardId;
  await checkPlacement(trx, current.appId, boardId, patch.appliesTo ?? field.appliesTo, patch.boardId !== undefined || restoring);
  if (restoring) {
    const active = await roomForOneMore(trx, current.appId);
    if (active.some((f) => f.key === current.key)) throw new ApiError("slug_taken", { message: "Another active field of the app has that key" });
    changes.archived = 0;
    changes.position = nextPosition(active);
  }
  await trx.updateTable("customFields").set(changes).where("id", "=", fieldId).execute();
  return findFieldInWorkspace(trx, workspaceId, fieldId);
}

/** Closes the gaps archiving leaves in an app's order. */
async function repack(trx: Kysely<Database>, appId: string): Promise<void> {
  for (const [position, row] of (await listFields(trx, appId)).entries()) {
    if (row.position !== position) await trx.updateTable("customFields").set({ position }).where("id", "=", row.id).execute();
  }
}

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

/** Sets the order of an app's active fields; `fieldIds` must list each of them exactly once. */
export async function reorderFields(trx: Kysely<Database>, clock: Clock, appId: string, fieldIds: readonly string[]): Promise<CustomFieldRow[]> {
  const existing = new Set((await listFields(trx, appId)).map((f) => f.id));
  const given = new Set(fieldIds);
  if (given.size !== fieldIds.length || given.size !== existing.size || [...given].some((id) => !existing.has(id))) {
    throw new ApiError("invalid_field_order");
  }
  const now = isoNow(clock);
  for (const [position, id] of fieldIds.entries()) {
    await trx.updateTable("customFields").set({ position, updatedAt: now }).where("id", "=", id).execute();
  }
  return listFields(trx, appId);
}
