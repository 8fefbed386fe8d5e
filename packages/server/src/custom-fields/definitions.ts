import { MAX_FIELDS_PER_APP, type CreateCustomFieldBody, type CustomFieldForm, type UpdateCustomFieldBody } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { slugify, uniqueSlug } from "../slug.js";
import { findFieldInWorkspace, listFields } from "./field-reads.js";
import { toCustomField, type CustomFieldRow } from "./field-rows.js";
import { fieldProblems, fieldShape } from "./shape.js";

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
