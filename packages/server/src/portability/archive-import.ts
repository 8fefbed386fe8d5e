import readline from "node:readline";
import { Readable } from "node:stream";
import { sql } from "kysely";
import type { Db } from "../db/database.js";
import { refreshPlannerStatistics } from "../db/planner-statistics.js";
import type { ObjectStorage } from "../storage/object-storage.js";
import { ArchiveError } from "./archive-error.js";
import { IncomingFile } from "./archive-files.js";
import { ARCHIVE_TABLES, ARCHIVE_VERSION, TABLE_KEYS, type ArchiveTable } from "./archive-format.js";
import { ArchiveReferences } from "./archive-references.js";
import { prepare, tableColumns } from "./archive-rows.js";
import { ArchiveWriter } from "./archive-writer.js";
import { settleBoards } from "./archive-boards.js";

export { ArchiveError } from "./archive-error.js";

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

/** The scope an archive's header line names; refuses any other first line. */
function archiveScope(value: Record<string, unknown>, lineNo: number): ImportArchiveSummary["scope"] {
  if (value.type !== "tidings-archive") throw new ArchiveError("not a Tidings archive (the first line is not its header)", lineNo);
  if (typeof value.version !== "number" || value.version > ARCHIVE_VERSION || value.version < 1) {
    throw new ArchiveError(`archive version ${String(value.version)} is not supported (this server reads up to ${ARCHIVE_VERSION})`, lineNo);
  }
  const s = value.scope as Record<string, unknown> | undefined;
  if (s?.kind === "app" && typeof s.appKey === "string") return { kind: "app", appKey: s.appKey };
  if (s?.kind === "workspace" && typeof s.slug === "string") return { kind: "workspace", slug: s.slug };
  throw new ArchiveError("the header's scope is missing", lineNo);
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
  const writer = new ArchiveWriter(db, options.batchSize ?? 500);
  const references = new ArchiveReferences(db);
  const input = source instanceof Readable ? source : Readable.from(source);
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  const seen: Record<string, number> = {};
  let scope: ImportArchiveSummary["scope"] | undefined;
  let files = 0;
  let lineNo = 0;
  let done = 0;
  let ended = false;
  let incoming: IncomingFile | undefined;
  let tableIndex = 0;
  const into = options.workspaceId;
  if (into !== undefined) references.add("workspaces", into);

  /** Records an upload once its bytes are stored. */
  const finishFile = async (file: IncomingFile) => {
    if (await file.finish(lineNo)) files += 1;
    await writer.add(file.upload);
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
        scope = archiveScope(value, lineNo);
        continue;
      }
      if (ended) throw new ArchiveError("lines after the end line", lineNo);
      if (value.type === "file") {
        const file = incoming;
        if (file === undefined || value.uploadId !== file.upload.row.id) throw new ArchiveError("a file line that does not follow its upload row", lineNo);
        await file.write(value, lineNo);
        if (value.last === true) {
          incoming = undefined;
          await finishFile(file);
        }
        continue;
      }
      if (incoming !== undefined) {
        if (incoming.started) throw new ArchiveError(`the file of upload ${String(incoming.upload.row.id)} is cut short`, lineNo);
        const bytesless = incoming;
        incoming = undefined;
        await finishFile(bytesless);
      }
      if (value.type === "end") {
        await references.checkForward(ARCHIVE_TABLES[tableIndex]!);
        await writer.flush();
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
        await references.checkForward(ARCHIVE_TABLES[tableIndex]!);
        await writer.flush();
      }
      tableIndex = index;
      const row = prepare(table, value.row, columns.get(table) ?? new Map(), lineNo);
      if (into !== undefined && (table === "apps" || table === "submissions")) row.workspaceId = into;
      await references.check(table, row, lineNo);
      if (TABLE_KEYS[table].length === 1) references.add(table, String(row.id));
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
        incoming = new IncomingFile(pending, already, storage);
        continue;
      }
      await writer.add(pending);
    }
    if (incoming !== undefined) throw new ArchiveError(`the upload ${String(incoming.upload.row.id)} is cut short`, lineNo);
    if (scope === undefined) throw new ArchiveError("the archive is empty", 0);
    if (!ended) {
      await writer.flush();
      throw new ArchiveError("the archive is cut short (no end line): run the import again with the whole file", lineNo);
    }
  } finally {
    incoming?.destroy(new Error("import stopped"));
    lines.close();
  }
  await settleBoards(db, [...writer.appIds]);
  await recount(db, [...writer.appIds]);
  await refreshPlannerStatistics(db);
  return { scope, inserted: writer.inserted, existing: writer.existing, files };
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
