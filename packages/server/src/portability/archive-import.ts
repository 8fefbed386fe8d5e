import { createHash } from "node:crypto";
import { once } from "node:events";
import readline from "node:readline";
import { PassThrough, Readable } from "node:stream";
import { CUSTOM_FIELD_TYPES } from "@tidings/protocol";
import { sql } from "kysely";
import { newSigningSecret } from "../apps/apps.js";
import type { Db } from "../db/database.js";
import { reindex } from "../feature-requests/feature-requests.js";
import { STORAGE_KEY_SHAPE, type ObjectStorage } from "../storage/object-storage.js";
import { ARCHIVE_TABLES, ARCHIVE_VERSION, OMITTED_COLUMNS, OWNER_COLUMN, REFERENCES, TABLE_KEYS, loose, type ArchiveTable } from "./archive-format.js";

export interface ImportArchiveOptions {
  /** Called after every row with the rows read so far (the total is not known while streaming). */
  onProgress?: (done: number, total?: number) => void;
  /** Rows written per transaction. @default 500 */
  batchSize?: number;
  /**
   * Puts the archive's apps into this existing workspace (the dashboard's import) instead of
   * the workspace the archive carries, which is then not imported.
   */
  workspaceId?: string;
}

/** What an import wrote: rows added and rows already there (by id), per table, and files stored. */
export interface ImportArchiveSummary {
  scope: { kind: "app"; appKey: string } | { kind: "workspace"; slug: string };
  inserted: Record<string, number>;
  existing: Record<string, number>;
  files: number;
}

/** The archive is not one this server can read; `line` is 1-based. Nothing after that line was written. */
export class ArchiveError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly conflict = false,
  ) {
    super(line > 0 ? `line ${line}: ${message}` : message);
    this.name = "ArchiveError";
  }
}

type Row = Record<string, unknown>;

function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** What a column may hold. */
interface ColumnShape {
  integer: boolean;
}

/** The camelCase columns of every archived table as the target database has them. */
async function tableColumns(db: Db): Promise<Map<string, Map<string, ColumnShape>>> {
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
  "customFields.appliesTo": "array",
  "customFields.options": "array",
  "customFields.limits": "object",
  "featureRequests.customFields": "object",
  "featureRequestEvents.data": "object",
  "submissions.metadata": "object",
  "submissions.customFields": "object",
};

/** Flags stored as 0/1 (SQLite would take any number, and a 2 is neither). */
const FLAG_COLUMNS = /^(is[A-Z]|allow[A-Z]|hideSiteBranding$|verificationExempt$|verificationTrustIdentified$|createdByAdmin$|released$|required$|archived$)/;
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
function prepare(table: ArchiveTable, row: unknown, known: Map<string, ColumnShape>, lineNo: number): Row {
  if (typeof row !== "object" || row === null || Array.isArray(row)) throw new ArchiveError("a row must be a JSON object", lineNo);
  const out: Row = {};
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

interface Pending {
  table: ArchiveTable;
  row: Row;
  line: number;
}

/** An attachment whose bytes are arriving in `file` lines. */
interface Incoming {
  upload: Pending;
  skip: boolean;
  next: number;
  size: number;
  hash: ReturnType<typeof createHash>;
  stream?: PassThrough;
  stored?: Promise<void>;
}

/**
 * Reads a Tidings archive (see `exportArchive`) into the database and storage, keeping every id,
 * so the export of an app imported into an empty server matches the original row for row. Rows
 * whose key is already there are left as they are: importing the same archive twice changes
 * nothing, and an import cut short is completed by running it again. Rows are written in
 * batches of one transaction each; attachments are stored before their row is written.
 * Throws `ArchiveError` (with the line) for a malformed archive or one whose app key or
 * workspace slug belongs to another app or workspace here.
 *
 * @example
 * ```ts
 * const summary = await importArchive(db, storage, fs.createReadStream("app.jsonl"));
 * summary.inserted.featureRequests; // 120
 * ```
 */
export async function importArchive(
  db: Db,
  storage: ObjectStorage,
  source: Readable | AsyncIterable<string | Buffer>,
  options: ImportArchiveOptions = {},
): Promise<ImportArchiveSummary> {
  const columns = await tableColumns(db);
  const batchSize = options.batchSize ?? 500;
  const input = source instanceof Readable ? source : Readable.from(source);
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  const inserted: Record<string, number> = {};
  const existing: Record<string, number> = {};
  const seen: Record<string, number> = {};
  const appIds = new Set<string>();
  let scope: ImportArchiveSummary["scope"] | undefined;
  let files = 0;
  let lineNo = 0;
  let done = 0;
  let ended = false;
  let batch: Pending[] = [];
  let incoming: Incoming | undefined;
  let tableIndex = 0;
  const consoleUsers = new Map<string, boolean>();
  const into = options.workspaceId;
  /** Ids of the archive's rows per table: what its other rows may point at. */
  const ids = new Map<ArchiveTable, Set<string>>(ARCHIVE_TABLES.map((t) => [t, new Set<string>()]));
  if (into !== undefined) ids.get("workspaces")!.add(into);
  /** References to rows of the same table that may come later, checked at the table's end. */
  let forward: { id: string; line: number; what: string }[] = [];
  const absent = new Set<string>();

  /** Whether `id` is a row of `table` anywhere on this server (a reference to it would reach outside the archive). */
  const onServer = async (table: ArchiveTable, id: string) => {
    if (absent.has(`${table} ${id}`)) return false;
    const found = (await loose(db.kysely).selectFrom(table).select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
    if (!found) absent.add(`${table} ${id}`);
    return found;
  };

  const checkReferences = async (table: ArchiveTable, row: Row, line: number) => {
    for (const ref of REFERENCES[table] ?? []) {
      const value = row[ref.column];
      if (value === null && ref.nullable === true) continue;
      const what = `${table}.${ref.column}`;
      if (typeof value !== "string") throw new ArchiveError(`${what} must be an id`, line);
      if (ids.get(ref.table)!.has(value)) continue;
      if (ref.kind === "later") forward.push({ id: value, line, what });
      else if (ref.kind === "loose" && (value === "" || !(await onServer(ref.table, value)))) continue;
      else throw new ArchiveError(`${what} points at ${value}, which is not in the archive`, line);
    }
  };
  const checkForward = async (table: ArchiveTable) => {
    for (const ref of forward) {
      if (!ids.get(table)!.has(ref.id) && (await onServer(table, ref.id))) throw new ArchiveError(`${ref.what} points at ${ref.id}, which is not in the archive`, ref.line);
    }
    forward = [];
  };

  const consoleUserExists = async (id: unknown): Promise<boolean> => {
    if (typeof id !== "string") return false;
    const known = consoleUsers.get(id);
    if (known !== undefined) return known;
    const found = (await db.kysely.selectFrom("consoleUsers").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
    consoleUsers.set(id, found);
    return found;
  };

  /** Refuses an archive whose workspace slug or app key is taken here by a different row. */
  const checkIdentity = async (pending: Pending) => {
    const { table, row } = pending;
    if (table === "workspaces") {
      const other = await db.kysely.selectFrom("workspaces").select("id").where("slug", "=", String(row.slug)).executeTakeFirst();
      if (other !== undefined && other.id !== row.id) throw new ArchiveError(`workspace slug "${String(row.slug)}" belongs to another workspace on this server`, pending.line, true);
    }
    if (table === "apps") {
      const other = await db.kysely.selectFrom("apps").select("id").where("appKey", "=", String(row.appKey)).executeTakeFirst();
      if (other !== undefined && other.id !== row.id) throw new ArchiveError(`app key "${String(row.appKey)}" belongs to another app on this server`, pending.line, true);
      appIds.add(String(row.id));
    }
  };

  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    for (const pending of rows) {
      await checkIdentity(pending);
      // Console accounts are not part of an archive: a team reply or an assignee whose account
      // is not on this server keeps its name but loses the link.
      if (pending.table === "featureRequestComments" && !(await consoleUserExists(pending.row.teamUserId))) pending.row.teamUserId = null;
      if (pending.table === "submissions" && !(await consoleUserExists(pending.row.assignedTo))) pending.row.assignedTo = null;
    }
    await db.sharedTransaction(async (trx) => {
      const t = loose(trx);
      for (const { table, row, line } of rows) {
        const keys = TABLE_KEYS[table];
        try {
          const added = await t
            .insertInto(table)
            .values(row)
            .onConflict((oc) => oc.columns(keys as string[]).doNothing())
            .returning(keys[0]!)
            .execute();
          if (added.length > 0) {
            inserted[table] = (inserted[table] ?? 0) + 1;
            if (table === "featureRequests") await reindex(trx, db.dialect, String(row.id));
          } else {
            existing[table] = (existing[table] ?? 0) + 1;
            const owner = OWNER_COLUMN[table];
            if (owner !== undefined) {
              const there = await t.selectFrom(table).select(owner).where("id", "=", row.id).executeTakeFirst();
              if (there !== undefined && there[owner] !== row[owner]) {
                throw new ArchiveError(`${table} ${String(row.id)} already exists here and belongs elsewhere`, line, true);
              }
            }
          }
        } catch (error) {
          if (error instanceof ArchiveError) throw error;
          throw new ArchiveError(`the database refused this ${table} row: ${error instanceof Error ? error.message : String(error)}`, line);
        }
      }
    });
  };

  /** Records an upload once its bytes are stored; one with no file lines had none to export. */
  const finishFile = async (file: Incoming) => {
    if (file.next === 0) file.skip = true;
    if (file.stream !== undefined) {
      file.stream.end();
      await file.stored;
    }
    const row = file.upload.row;
    if (!file.skip && typeof row.size === "number" && row.size !== file.size) {
      throw new ArchiveError(`attachment ${String(row.id)} has ${file.size} bytes, its row says ${row.size}`, lineNo);
    }
    if (!file.skip && typeof row.sha256 === "string" && row.sha256 !== file.hash.digest("hex")) {
      throw new ArchiveError(`attachment ${String(row.id)} does not match its SHA-256`, lineNo);
    }
    if (!file.skip) files += 1;
    batch.push(file.upload);
    if (batch.length >= batchSize) await flush();
  };

  try {
    for await (const text of lines) {
      lineNo += 1;
      if (text.trim() === "") continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ArchiveError("not valid JSON", lineNo);
      }
      if (typeof parsed !== "object" || parsed === null) throw new ArchiveError("a line must be a JSON object", lineNo);
      const value = parsed as Record<string, unknown>;
      if (scope === undefined) {
        if (value.type !== "tidings-archive") throw new ArchiveError("not a Tidings archive (the first line is not its header)", lineNo);
        if (typeof value.version !== "number" || value.version > ARCHIVE_VERSION || value.version < 1) {
          throw new ArchiveError(`archive version ${String(value.version)} is not supported (this server reads up to ${ARCHIVE_VERSION})`, lineNo);
        }
        const s = value.scope as Record<string, unknown> | undefined;
        if (s?.kind === "app" && typeof s.appKey === "string") scope = { kind: "app", appKey: s.appKey };
        else if (s?.kind === "workspace" && typeof s.slug === "string") scope = { kind: "workspace", slug: s.slug };
        else throw new ArchiveError("the header's scope is missing", lineNo);
        continue;
      }
      if (ended) throw new ArchiveError("lines after the end line", lineNo);
      if (value.type === "file") {
        const file = incoming;
        if (file === undefined || value.uploadId !== file.upload.row.id) throw new ArchiveError("a file line that does not follow its upload row", lineNo);
        if (value.part !== file.next || typeof value.data !== "string") throw new ArchiveError(`file part ${String(value.part)} out of order`, lineNo);
        file.next += 1;
        if (!file.skip) {
          const bytes = Buffer.from(value.data, "base64");
          file.size += bytes.length;
          file.hash.update(bytes);
          if (file.stream === undefined) {
            const stream = new PassThrough();
            file.stream = stream;
            file.stored = storage.put(String(file.upload.row.storageKey), stream);
            // Rejections are awaited in finishFile; this keeps an early one from going unhandled.
            file.stored.catch(() => {});
          }
          if (!file.stream.write(bytes)) await Promise.race([once(file.stream, "drain"), file.stored]);
        }
        if (value.last === true) {
          incoming = undefined;
          await finishFile(file);
        }
        continue;
      }
      if (incoming !== undefined) {
        if (incoming.next > 0) throw new ArchiveError(`the file of upload ${String(incoming.upload.row.id)} is cut short`, lineNo);
        const bytesless = incoming;
        incoming = undefined;
        await finishFile(bytesless);
      }
      if (value.type === "end") {
        await checkForward(ARCHIVE_TABLES[tableIndex]!);
        await flush();
        const counts = (value.counts ?? {}) as Record<string, unknown>;
        for (const table of ARCHIVE_TABLES) {
          if ((counts[table] ?? 0) !== (seen[table] ?? 0)) throw new ArchiveError(`the end line counts ${String(counts[table])} ${table} rows, the archive holds ${seen[table] ?? 0}`, lineNo);
        }
        ended = true;
        continue;
      }
      if (value.type !== "row") throw new ArchiveError(`unknown line type ${JSON.stringify(value.type)}`, lineNo);
      const table = value.table as ArchiveTable;
      const index = ARCHIVE_TABLES.indexOf(table);
      if (index < 0) throw new ArchiveError(`unknown table ${JSON.stringify(value.table)}`, lineNo);
      if (index < tableIndex) throw new ArchiveError(`${table} rows must come before ${ARCHIVE_TABLES[tableIndex]} rows`, lineNo);
      // Rows of a table go in only after every row they may reference is in.
      if (index > tableIndex) {
        await checkForward(ARCHIVE_TABLES[tableIndex]!);
        await flush();
      }
      tableIndex = index;
      const row = prepare(table, value.row, columns.get(table) ?? new Map(), lineNo);
      if (into !== undefined && (table === "apps" || table === "submissions")) row.workspaceId = into;
      await checkReferences(table, row, lineNo);
      if (TABLE_KEYS[table].length === 1) ids.get(table)!.add(String(row.id));
      if (table === "workspaces" && into !== undefined) {
        seen[table] = (seen[table] ?? 0) + 1;
        continue;
      }
      seen[table] = (seen[table] ?? 0) + 1;
      done += 1;
      options.onProgress?.(done);
      const pending = { table, row, line: lineNo };
      if (table === "uploads") {
        const already = (await db.kysely.selectFrom("uploads").select("id").where("id", "=", String(row.id)).executeTakeFirst()) !== undefined;
        incoming = { upload: pending, skip: already, next: 0, size: 0, hash: createHash("sha256") };
        continue;
      }
      batch.push(pending);
      if (batch.length >= batchSize) await flush();
    }
    if (incoming !== undefined) throw new ArchiveError(`the upload ${String(incoming.upload.row.id)} is cut short`, lineNo);
    if (scope === undefined) throw new ArchiveError("the archive is empty", 0);
    if (!ended) {
      await flush();
      throw new ArchiveError("the archive is cut short (no end line): run the import again with the whole file", lineNo);
    }
  } finally {
    incoming?.stream?.destroy(new Error("import stopped"));
    lines.close();
  }
  await recount(db, [...appIds]);
  return { scope, inserted, existing, files };
}

/** Sets every request's vote and comment counts from its rows, as live votes keep them. */
async function recount(db: Db, appIds: string[]): Promise<void> {
  if (appIds.length === 0) return;
  await db.sharedTransaction(async (trx) => {
    await sql`update feature_requests set
        vote_count = imported_votes + (select count(*) from feature_request_votes v where v.feature_request_id = feature_requests.id),
        comment_count = (select count(*) from feature_request_comments c where c.feature_request_id = feature_requests.id and c.is_hidden = 0)
      where app_id in (${sql.join(appIds)})`.execute(trx);
  });
}
