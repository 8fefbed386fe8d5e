import { sql } from "kysely";
import { newSigningSecret } from "../apps/app-keys.js";
import type { Db } from "../db/database.js";
import { STORAGE_KEY_SHAPE } from "../storage/object-storage.js";
import { ArchiveError } from "./archive-error.js";
import { ARCHIVE_TABLES, OMITTED_COLUMNS, TABLE_KEYS, type ArchiveRow, type ArchiveTable } from "./archive-format.js";
import { CUSTOM_FIELD_TYPES } from "@tidings/protocol";

/** A row read from the archive, with its line, waiting to be written. */
export interface Pending {
  table: ArchiveTable;
  row: ArchiveRow;
  line: number;
}

function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** What a column may hold. */
export interface ColumnShape {
  integer: boolean;
}

/** The camelCase columns of every archived table as the target database has them. */
export async function tableColumns(db: Db): Promise<Map<string, Map<string, ColumnShape>>> {
  const columns = new Map<string, Map<string, ColumnShape>>();
  const add = (table: string, column: string, type: string) => {
    const known = columns.get(table) ?? new Map<string, ColumnShape>();
    known.set(snakeToCamel(column), { integer: /^(int|integer|bigint|smallint)/i.test(type) });
    columns.set(table, known);
  };
  const snake = (table: string) => table.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (db.dialect === "postgres") {
    // Only this schema: other schemas' tables are none of the import's business.
    const { rows } = await sql<{ tableName: string; columnName: string; dataType: string }>`select table_name, column_name, data_type
      from information_schema.columns where table_schema = current_schema()`.execute(db.kysely);
    for (const row of rows) add(snakeToCamel(row.tableName), row.columnName, row.dataType);
    return columns;
  }
  for (const table of ARCHIVE_TABLES) {
    const { rows } = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${snake(table)})`.execute(db.kysely);
    for (const row of rows) add(table, row.name, row.type);
  }
  return columns;
}

function isScalar(value: unknown): value is string | number | null {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Text columns holding JSON, and whether an array or an object. */
const JSON_COLUMNS: Record<string, "array" | "object"> = {
  "apps.allowedEmbedOrigins": "array",
  "apps.allowedPlatforms": "array",
  "apps.sdk": "object",
  "companies.attributes": "object",
  "customFields.appliesTo": "array",
  "customFields.options": "array",
  "customFields.limits": "object",
  "featureRequests.customFields": "object",
  "featureRequestEvents.data": "object",
  "submissions.customFields": "object",
  "submissions.metadata": "object",
};

/** Flags stored as 0/1 (SQLite would take any number, and a 2 is neither). */
const FLAG_COLUMNS = /^(is[A-Z]|allow[A-Z]|hideSiteBranding$|verificationExempt$|verificationTrustIdentified$|createdByAdmin$|released$|required$|archived$|isDefault$)/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** Why `value` cannot go into `table.column`, or undefined when it can. */
function valueProblem(table: string, column: string, shape: ColumnShape, value: string | number | null): string | undefined {
  if (value === null) return undefined;
  if (shape.integer) {
    if (typeof value !== "number" || !Number.isSafeInteger(value)) return "must be a whole number";
    if (FLAG_COLUMNS.test(column) && value !== 0 && value !== 1) return "must be 0 or 1";
    return undefined;
  }
  if (typeof value !== "string") return "must be a string";
  if (/At$/.test(column) && !TIMESTAMP.test(value)) return "must be an ISO-8601 UTC time";
  // Forms and the console check values by type: a field of an unknown type could check nothing.
  if (table === "customFields" && column === "type" && !(CUSTOM_FIELD_TYPES as readonly string[]).includes(value)) return `must be one of ${CUSTOM_FIELD_TYPES.join(", ")}`;
  const json = JSON_COLUMNS[`${table}.${column}`];
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return "must hold JSON";
    }
    if (json === "array" ? !Array.isArray(parsed) : typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return `must hold a JSON ${json}`;
  }
  return undefined;
}

/** Gets one row ready for insertion: known columns only, scalar values, derived columns filled. */
export function prepare(table: ArchiveTable, row: unknown, known: Map<string, ColumnShape>, lineNo: number): ArchiveRow {
  if (typeof row !== "object" || row === null || Array.isArray(row)) throw new ArchiveError("a row must be a JSON object", lineNo);
  const out: ArchiveRow = {};
  for (const [column, value] of Object.entries(row)) {
    const shape = known.get(column);
    if (shape === undefined || (OMITTED_COLUMNS[table] ?? []).includes(column)) throw new ArchiveError(`unknown column "${column}" in ${table}`, lineNo);
    if (!isScalar(value)) throw new ArchiveError(`${table}.${column} must be a string, a number or null`, lineNo);
    const problem = valueProblem(table, column, shape, value);
    if (problem !== undefined) throw new ArchiveError(`${table}.${column} ${problem}`, lineNo);
    out[column] = value;
  }
  for (const key of TABLE_KEYS[table]) {
    if (typeof out[key] !== "string" || out[key] === "") throw new ArchiveError(`${table} row without its ${key}`, lineNo);
  }
  if (table === "apps") Object.assign(out, { signingSecret: newSigningSecret(), verificationSecret: null });
  if (table === "featureRequests") Object.assign(out, { searchTitle: "", searchBody: "", searchExtra: "" });
  // Archives written before boards name none: the default board's id (see archive-boards.ts).
  if (table === "featureRequests" && out.boardId === undefined && typeof out.appId === "string") out.boardId = `brd_${out.appId.slice(4)}`;
  if (table === "submissions") {
    const text = (column: string) => (typeof out[column] === "string" ? (out[column] as string) : "");
    out.searchText = [text("title"), text("description"), text("reporterName"), text("reporterEmail")].join("\n").toLowerCase();
  }
  if (table === "uploads") {
    out.sessionId = null;
    if (typeof out.storageKey !== "string" || !STORAGE_KEY_SHAPE.test(out.storageKey)) throw new ArchiveError("uploads.storageKey is not a storage key", lineNo);
  }
  return out;
}
