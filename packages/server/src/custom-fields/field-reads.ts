import type { CustomField } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { CUSTOM_FIELD_COLUMNS, toCustomField, type CustomFieldRow } from "./field-rows.js";

/** An app's fields: the active ones by position, then (when asked) the archived ones. */
export function listFields(db: Kysely<Database>, appId: string, includeArchived = false): Promise<CustomFieldRow[]> {
  return (includeArchived ? everyField : activeFields).rows(db, { appId });
}

/**
 * {@link listFields}' two reads, prepared: every proposal and feedback reads the app's active
 * fields. Their columns are listed, so on PostgreSQL they are named statements (see everyColumn).
 */
function fieldsOfApp(includeArchived: boolean) {
  return preparedQuery<{ appId: string }, CustomFieldRow>((db, p) => {
    const query = db.selectFrom("customFields").select(CUSTOM_FIELD_COLUMNS).where("appId", "=", p.appId);
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
