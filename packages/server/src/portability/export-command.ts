import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { commandConfig, type CommandIo } from "../command-io.js";
import { openDatabase } from "../db/database.js";
import { openStorage } from "../storage/open-storage.js";
import { exportArchive } from "./export.js";
import { ExportScopeNotFound, type ExportScope } from "./export-scope.js";
import { systemClock } from "../clock.js";
import { stderrProgress } from "./count-progress.js";
import { exportRequestsCsv } from "./requests-csv.js";
import { withSnapshot } from "./snapshot.js";

export const EXPORT_USAGE = `Usage: tidings export (--app <appKey> | --workspace <slug>) --out <file> [--format jsonl|csv] [--json]

Writes a Tidings archive (JSON Lines: requests, votes, comments, columns, versions, changelog,
subscribers with their consent state, feedback with its attachment files) of one app or of every
app of a workspace. \`tidings import --format tidings <file>\` reads it back. With --format csv,
writes the app's feature requests as a spreadsheet instead. Signing and verification secrets are
never exported. Reads the same settings as \`tidings serve\` and may run while the server does.

Options:
  --app <appKey>        The app to export
  --workspace <slug>    Every app of this workspace (archive only)
  --out <file>          Where to write; "-" for stdout. The file appears only once complete.
  --format <format>     jsonl (default) or csv (the app's requests)
  --json                Print a JSON summary on stdout
  -h, --help            Show this help

Exit codes: 0 written, 1 the export failed, 2 bad usage or configuration, 3 no such app or workspace.`;

/**
 * `tidings export`: writes an archive or a requests CSV. Answers the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await exportCommand(["--app", "app_demo", "--out", "demo.jsonl"], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function exportCommand(args: string[], io: CommandIo): Promise<number> {
  let options: { app?: string; workspace?: string; out?: string; format?: string; json?: boolean; help?: boolean };
  try {
    options = parseArgs({
      args,
      options: {
        app: { type: "string" },
        workspace: { type: "string" },
        out: { type: "string" },
        format: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${EXPORT_USAGE}\n`);
    return 2;
  }
  if (options.help === true) {
    io.stdout.write(`${EXPORT_USAGE}\n`);
    return 0;
  }
  const format = options.format ?? "jsonl";
  const problem =
    (options.app === undefined) === (options.workspace === undefined)
      ? "Give exactly one of --app and --workspace."
      : options.out === undefined || options.out === ""
        ? "Give --out <file>."
        : format !== "jsonl" && format !== "csv"
          ? `Unknown --format "${format}": use jsonl or csv.`
          : format === "csv" && options.app === undefined
            ? "--format csv exports one app's requests: give --app."
            : undefined;
  if (problem !== undefined) {
    io.stderr.write(`${problem}\n\n${EXPORT_USAGE}\n`);
    return 2;
  }
  const config = commandConfig(io);
  if (config === undefined) return 2;
  const scope: ExportScope = options.app !== undefined ? { appKey: options.app } : { workspaceSlug: options.workspace! };
  const out = options.out!;
  const toStdout = out === "-";
  const file = toStdout ? "" : path.resolve(out);
  const partial = `${file}.${process.pid}.part`;
  const db = openDatabase(config.databaseUrl);
  const storage = await openStorage(config);
  let rows = 0;
  const progress = stderrProgress(io, systemClock, "Exporting", "rows");
  const onProgress = (done: number, total?: number) => {
    rows = done;
    progress(done, total);
  };
  try {
    const lines = withSnapshot(db, (snapshot) =>
      format === "csv" ? exportRequestsCsv(snapshot, { appKey: options.app! }, onProgress) : exportArchive(snapshot, storage, { scope, onProgress }),
    );
    if (toStdout) {
      await pipeline(Readable.from(lines), io.stdout, { end: false });
    } else {
      await pipeline(Readable.from(lines), fs.createWriteStream(partial));
      fs.renameSync(partial, file);
    }
    const summary = { format, out: toStdout ? "-" : file, rows, bytes: toStdout ? undefined : fs.statSync(file).size };
    if (options.json === true && !toStdout) io.stdout.write(`${JSON.stringify(summary)}\n`);
    else io.stderr.write(`Exported ${rows} ${format === "csv" ? "request(s)" : "row(s)"}${toStdout ? "" : ` to ${file}`}.\n`);
    return 0;
  } catch (error) {
    if (!toStdout) fs.rmSync(partial, { force: true });
    if (error instanceof ExportScopeNotFound) {
      io.stderr.write(`${error.message}.\n`);
      return 3;
    }
    io.stderr.write(`Export failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await storage.close?.();
    await db.destroy();
  }
}
