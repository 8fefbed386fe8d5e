import type { CustomField, CustomFieldValue } from "@tidings/protocol";
import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SqlBool } from "kysely";
import type { Database } from "../db/schema.js";
import { listFields } from "./field-reads.js";
import { toCustomField } from "./field-rows.js";
import { fieldProblems } from "./shape.js";

/** The query prefix of a field filter: `field.<key>=<value>`. */
export const FIELD_FILTER_PREFIX = "field.";
/** The most field filters one listing takes (repeated keys count each). */
export const MAX_FIELD_FILTERS = 10;

/** One filter: rows whose value of `field` equals `value` (holds it, for a multi select). */
export interface FieldFilter {
  field: CustomField;
  value: CustomFieldValue;
}

/** The `field.<key>` parameters of a querystring, by key; repeated ones give every value. */
export function fieldFilterParams(query: Readonly<Record<string, unknown>>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, raw] of Object.entries(query)) {
    if (!name.startsWith(FIELD_FILTER_PREFIX)) continue;
    const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === "string");
    out.set(name.slice(FIELD_FILTER_PREFIX.length), values);
  }
  return out;
}

/** A filter's text as the field's type reads it, or the problem with it. */
function typed(field: CustomField, text: string): { value: CustomFieldValue } | { problem: string } {
  if (field.type === "number") {
    const n = text.trim() === "" ? Number.NaN : Number(text);
    return Number.isFinite(n) ? { value: n } : { problem: "Must be a number" };
  }
  if (field.type === "checkbox") return text === "true" || text === "false" ? { value: text === "true" } : { problem: "Must be true or false" };
  return { value: text };
}

/**
 * Reads the `field.<key>=<value>` parameters of a console listing against the app's active
 * fields: equality, or for a multi select "holds this option"; repeating a key asks for every
 * value. Keys are an app's, so the listing must name its app. Any problem (no app, an unknown
 * key, a number or checkbox value that is not one) is `400 validation_failed` naming the
 * parameter.
 *
 * @example
 * ```ts
 * await fieldFilters(db, appId, { "field.plan": "pro", "field.seats": "10" });
 * ```
 */
export async function fieldFilters(db: Kysely<Database>, appId: string | undefined, query: Readonly<Record<string, unknown>>): Promise<FieldFilter[]> {
  const params = fieldFilterParams(query);
  if (params.size === 0) return [];
  const problems: Record<string, string[]> = {};
  const [firstKey] = params.keys();
  if (appId === undefined) throw fieldProblems({ [`${FIELD_FILTER_PREFIX}${firstKey}`]: ["Field filters need appId: keys belong to an app"] });
  const fields = new Map((await listFields(db, appId)).map((row) => [row.key, toCustomField(row)]));
  const filters: FieldFilter[] = [];
  for (const [key, texts] of params) {
    const name = `${FIELD_FILTER_PREFIX}${key}`;
    const field = fields.get(key);
    if (field === undefined) {
      problems[name] = ["Unknown field"];
      continue;
    }
    for (const text of texts) {
      const read = typed(field, text);
      if ("problem" in read) problems[name] = [read.problem];
      else filters.push({ field, value: read.value });
    }
  }
  if (filters.length > MAX_FIELD_FILTERS && Object.keys(problems).length === 0) problems[`${FIELD_FILTER_PREFIX}${firstKey}`] = [`At most ${MAX_FIELD_FILTERS} field filters at once`];
  if (Object.keys(problems).length > 0) throw fieldProblems(problems);
  return filters;
}

/**
 * The SQL condition of one filter on a JSON text column of values by field id (`column`, e.g.
 * `fr.custom_fields`): SQLite reads it with `json_extract` / `json_each`, PostgreSQL with jsonb
 * containment, so both engines match the same rows (a number equals whatever way it was written).
 */
export function fieldCondition(db: Kysely<Database>, column: string, filter: FieldFilter): RawBuilder<SqlBool> {
  const ref = sql.ref(column);
  const { id, type } = filter.field;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const wanted = JSON.stringify({ [id]: type === "multi_select" ? [filter.value] : filter.value });
    return sql<SqlBool>`(${ref})::jsonb @> ${wanted}::jsonb`;
  }
  const path = `$."${id}"`;
  if (type === "multi_select") return sql<SqlBool>`exists (select 1 from json_each(${ref}, ${path}) as picked where picked.value = ${filter.value})`;
  if (type === "checkbox") return sql<SqlBool>`json_type(${ref}, ${path}) = ${filter.value === true ? "true" : "false"}`;
  if (type === "number") return sql<SqlBool>`(json_type(${ref}, ${path}) in ('integer', 'real') and json_extract(${ref}, ${path}) = ${filter.value})`;
  return sql<SqlBool>`(json_type(${ref}, ${path}) = 'text' and json_extract(${ref}, ${path}) = ${filter.value})`;
}
