import fs from "node:fs";
import { Transform } from "node:stream";
import { systemClock, type Clock } from "../clock.js";
import type { Config } from "../config.js";
import { migrateToLatest } from "../db/migrate.js";
import { openDatabase, type Db } from "../db/database.js";
import { openStorage } from "../storage/open-storage.js";
import type { CommandIo } from "../command-io.js";
import { ArchiveError, importArchive, type ImportArchiveSummary } from "./archive-import.js";
import { createReporter, progressMode } from "./progress.js";

/** What `tidings import --format tidings` takes besides the archive's path. */
export interface ArchiveImportOptions {
  /** Slug of an existing workspace to put the archive's apps in (instead of the archive's own workspace). */
  workspace: string | undefined;
  json: boolean;
}

/**
 * `tidings import --format tidings <file>`: reads an archive written by `tidings export` back,
 * showing its progress by bytes read. Answers 0 when imported, 1 when the archive was refused or
 * the import failed (rows of earlier lines stay written; running it again completes it), 2 when
 * `--workspace` names no workspace.
 *
 * @example
 * ```ts
 * const code = await importArchiveFile(config, "acme.jsonl", { workspace: undefined, json: false }, io);
 * ```
 */
export async function importArchiveFile(
  config: Config,
  file: string,
  options: ArchiveImportOptions,
  io: CommandIo,
  deps: { clock?: Clock; openDb?: (config: Config) => Db } = {},
): Promise<number> {
  const fail = (message: string, code: number) => {
    if (options.json) io.stdout.write(`${JSON.stringify({ type: "error", message })}\n`);
    else io.stderr.write(`${message}\n`);
    return code;
  };
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch (error) {
    return fail(`Cannot import: ${(error as Error).message}. Nothing was written.`, 1);
  }
  const db = deps.openDb?.(config) ?? openDatabase(config.databaseUrl);
  const storage = await openStorage(config);
  const progress = createReporter({ mode: progressMode(options.json, io.stderr), stderr: io.stderr, stdout: io.stdout, clock: deps.clock ?? systemClock, label: "Importing", unit: "bytes" });
  try {
    if (deps.openDb === undefined) await migrateToLatest(db);
    let workspaceId: string | undefined;
    if (options.workspace !== undefined) {
      const row = await db.kysely.selectFrom("workspaces").select("id").where("slug", "=", options.workspace).executeTakeFirst();
      if (row === undefined) return fail(`Cannot import: no workspace with slug "${options.workspace}". Nothing was written.`, 2);
      workspaceId = row.id;
    }
    let bytes = 0;
    let rows = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    progress.start(size);
    const summary = await importArchive(db, storage, fs.createReadStream(file).pipe(counted), {
      ...(workspaceId === undefined ? {} : { workspaceId }),
      onProgress: (done) => {
        rows = done;
        progress.update(bytes, { rows });
      },
    });
    progress.update(size, { rows });
    progress.stop();
    report(io, options, summary);
    return 0;
  } catch (error) {
    progress.stop();
    if (error instanceof ArchiveError) return fail(`Archive refused at line ${error.line}: ${error.message}. Rows of earlier lines are written; nothing after it.`, 1);
    return fail(`Import failed: ${error instanceof Error ? error.message : String(error)}. Running it again completes it.`, 1);
  } finally {
    await storage.close?.();
    if (deps.openDb === undefined) await db.destroy();
  }
}

function report(io: CommandIo, options: ArchiveImportOptions, summary: ImportArchiveSummary): void {
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ type: "summary", format: "tidings", ...summary })}\n`);
    return;
  }
  const target = summary.scope.kind === "app" ? `app ${summary.scope.appKey}` : `workspace ${summary.scope.slug}`;
  const lines = [`Imported the archive of ${target}:`];
  for (const table of Object.keys({ ...summary.inserted, ...summary.existing }).sort()) {
    lines.push(`  ${table.padEnd(28)} ${summary.inserted[table] ?? 0} new, ${summary.existing[table] ?? 0} already there`);
  }
  lines.push(`  files                        ${summary.files}`);
  io.stdout.write(`${lines.join("\n")}\n`);
}
