import type { CustomField, RecordField } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { fieldsOfApps } from "./field-reads.js";
import { parseStoredValues, type StoredFieldValues } from "./values.js";

/**
 * The values a request or submission holds, with their fields as they stand now, in the fields'
 * order (archived ones last). A value is shown as stored even when the field's options or limits
 * changed since; a value whose field is unknown here (an archive from elsewhere) is left out.
 *
 * @example
 * ```ts
 * recordFields(definitions, row.customFields); // [{ id, key: "plan", label: "Plan", type: "single_select", value: "pro", archived: false }]
 * ```
 */
export function recordFields(definitions: readonly CustomField[], stored: string | StoredFieldValues): RecordField[] {
  const values = typeof stored === "string" ? parseStoredValues(stored) : stored;
  const out: RecordField[] = [];
  for (const field of definitions) {
    if (!Object.hasOwn(values, field.id)) continue;
    out.push({ id: field.id, key: field.key, label: field.label, type: field.type, value: values[field.id]!, archived: field.archived });
  }
  return out;
}

/**
 * Shows the stored values of many rows (requests or submissions, any apps): reads every field
 * of their apps once and answers a function from a row to its {@link recordFields}.
 */
export async function recordFieldsOf(db: Kysely<Database>, appIds: readonly string[]): Promise<(row: { appId: string; customFields: string }) => RecordField[]> {
  const byApp = await fieldsOfApps(db, appIds);
  return (row) => {
    const definitions = byApp.get(row.appId);
    return definitions === undefined || row.customFields === "{}" ? [] : recordFields(definitions, row.customFields);
  };
}
