import type { CustomField, CustomFieldForm, CustomFieldLimits, CustomFieldOption, PublicCustomField } from "@tidings/protocol";
import type { Selectable } from "kysely";
import { everyColumn } from "../db/every-column.js";
import type { CustomFieldsTable } from "../db/schema.js";

export type CustomFieldRow = Selectable<CustomFieldsTable>;

/** Every column of `custom_fields`, named (see {@link everyColumn}). */
export const CUSTOM_FIELD_COLUMNS = everyColumn<CustomFieldsTable>({
  id: true,
  appId: true,
  boardId: true,
  key: true,
  label: true,
  description: true,
  type: true,
  required: true,
  appliesTo: true,
  options: true,
  limits: true,
  position: true,
  archived: true,
  createdAt: true,
  updatedAt: true,
});

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
