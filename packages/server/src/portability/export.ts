import type { Kysely } from "kysely";
import { isoNow, systemClock, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import type { ObjectStorage } from "../storage/object-storage.js";
import { ARCHIVE_TABLES, ARCHIVE_VERSION, OMITTED_COLUMNS, loose, type ArchiveHeader, type ArchiveLine } from "./archive-format.js";
import { fileLines } from "./export-files.js";
import { countOf, rowsOf } from "./export-rows.js";
import { resolveScope, type ExportScope } from "./export-scope.js";

export interface ExportOptions {
  scope: ExportScope;
  /** Called after every row with the rows written so far and the total counted up front. */
  onProgress?: (done: number, total?: number) => void;
  /** @default systemClock */
  clock?: Clock;
  /** Rows read per query. @default 500 */
  pageSize?: number;
}

function line(value: ArchiveHeader | ArchiveLine): string {
  return `${JSON.stringify(value)}\n`;
}

/**
 * Writes an app or a workspace as a Tidings archive: JSON Lines, a header line, one line per row
 * (workspace, apps, columns, versions, end users, requests, votes, comments, events, changelog,
 * subscribers with their consent state, feedback, attachments), each attachment's bytes in
 * base64 `file` lines right after its row, and an `end` line with the row counts so a cut-short
 * file is told apart from a complete one. Reads page by page: memory stays bounded.
 *
 * @example
 * ```ts
 * await pipeline(Readable.from(exportArchive(db.kysely, storage, { scope: { appKey } })), fs.createWriteStream("app.jsonl"));
 * ```
 */
export async function* exportArchive(db: Kysely<Database>, storage: ObjectStorage, options: ExportOptions): AsyncGenerator<string> {
  const scope = await resolveScope(db, options.scope);
  const pageSize = options.pageSize ?? 500;
  const ldb = loose(db);
  let total = 0;
  for (const table of ARCHIVE_TABLES) total += await countOf(ldb, table, scope);
  yield line({ type: "tidings-archive", version: ARCHIVE_VERSION, exportedAt: isoNow(options.clock ?? systemClock), scope: scope.header });
  const counts: Record<string, number> = {};
  let done = 0;
  options.onProgress?.(0, total);
  for (const table of ARCHIVE_TABLES) {
    const omitted = OMITTED_COLUMNS[table] ?? [];
    counts[table] = 0;
    for await (const row of rowsOf(ldb, table, scope, pageSize)) {
      for (const column of omitted) delete row[column];
      yield line({ type: "row", table, row });
      counts[table] += 1;
      done += 1;
      options.onProgress?.(done, Math.max(total, done));
      if (table === "uploads") for await (const file of fileLines(storage, row)) yield line(file);
    }
  }
  yield line({ type: "end", counts });
}
