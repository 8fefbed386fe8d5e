import type { CustomField, CustomFieldForm } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { defaultBoard } from "../boards/boards.js";
import { readThrough, type SharedCache } from "../cache/shared-cache.js";
import { appTag } from "../context.js";
import type { Database } from "../db/schema.js";
import { boardFields, listFields } from "./field-reads.js";
import { toCustomField } from "./field-rows.js";
import { checkFieldValues, type StoredFieldValues } from "./values.js";

/** How long an app's active fields may be reused from the cache (field writes drop them at once, by the app's tag). */
const FIELDS_CACHE_MS = 60_000;

/** A form's values as checked: what to store, and the definitions they were checked against. */
export interface AcceptedFields {
  values: StoredFieldValues;
  definitions: CustomField[];
}

/**
 * Checks the `fields` of a proposal or feedback body against the fields its form asks for: a
 * proposal's are the app-wide ones and those of its board (the default board unless `boardId`
 * names one), feedback's the app-wide ones. Throws `400 validation_failed` naming
 * `fields.<key>`; call it before anything is written.
 *
 * @example
 * ```ts
 * const { values } = await acceptFields(db, appId, "feedback", undefined, body.fields);
 * ```
 */
export async function acceptFields(
  db: Kysely<Database>,
  appId: string,
  form: CustomFieldForm,
  boardId: string | undefined,
  input: Readonly<Record<string, unknown>> | undefined,
  /** The shared cache, for public submissions: the app's fields are read from it when there. */
  cache?: SharedCache,
): Promise<AcceptedFields> {
  const active = await readThrough(cache, `fields:${appId}`, { ttlMs: FIELDS_CACHE_MS, tags: [appTag(appId)] }, () => listFields(db, appId));
  const asked = active.map(toCustomField).filter((f) => f.appliesTo.includes(form));
  // The board matters only when some field is a board's own (feedback fields never are).
  const board = asked.some((f) => f.boardId !== null) ? (boardId ?? (await defaultBoard(db, appId)).id) : null;
  const definitions = asked.filter((f) => f.boardId === null || f.boardId === board);
  return { values: checkFieldValues(definitions, input), definitions };
}

/**
 * The team's edit of a request's values: each key given is checked against the active proposal
 * field of that key its board asks for (app-wide or the board's own), and `null`, blank text or
 * an empty selection clears the value (refused for a required field). Values not named stay as
 * stored, even when their field's options or limits changed since. Throws `400
 * validation_failed` naming `fields.<key>`; answers the values to store and the keys that changed.
 *
 * @example
 * ```ts
 * await editRequestFields(trx, appId, boardId, stored, { plan: "pro", notes: null }); // { values, changedKeys: ["plan", "notes"] }
 * ```
 */
export async function editRequestFields(
  db: Kysely<Database>,
  appId: string,
  boardId: string,
  stored: StoredFieldValues,
  input: Readonly<Record<string, unknown>>,
): Promise<{ values: StoredFieldValues; changedKeys: string[] }> {
  const named = (await boardFields(db, appId, boardId)).filter((f) => f.appliesTo.includes("feature_request") && Object.hasOwn(input, f.key));
  // Keys no named definition has are refused as unknown by the same check a proposal gets.
  const checked = checkFieldValues(named, input);
  const values = { ...stored };
  const changedKeys: string[] = [];
  for (const field of named) {
    const after = checked[field.id];
    if (JSON.stringify(after) === JSON.stringify(stored[field.id])) continue;
    if (after === undefined) delete values[field.id];
    else values[field.id] = after;
    changedKeys.push(field.key);
  }
  return { values, changedKeys };
}
