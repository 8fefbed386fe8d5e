import type { CustomField, CustomFieldForm } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { defaultBoard } from "../boards/boards.js";
import type { Database } from "../db/schema.js";
import { listFields, toCustomField } from "./definitions.js";
import { checkFieldValues, type StoredFieldValues } from "./values.js";

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
): Promise<AcceptedFields> {
  const asked = (await listFields(db, appId)).map(toCustomField).filter((f) => f.appliesTo.includes(form));
  // The board matters only when some field is a board's own (feedback fields never are).
  const board = asked.some((f) => f.boardId !== null) ? (boardId ?? (await defaultBoard(db, appId)).id) : null;
  const definitions = asked.filter((f) => f.boardId === null || f.boardId === board);
  return { values: checkFieldValues(definitions, input), definitions };
}
