import { parseArgs } from "node:util";
import { commandConfig, type CommandIo } from "../command-io.js";
import { openStorage } from "../storage/open-storage.js";
import { BackupUsageError } from "./backup-error.js";
import { backup } from "./backup.js";
import { restore } from "./restore.js";
import { systemClock } from "../clock.js";
import { stderrProgress } from "./progress.js";

export const BACKUP_USAGE = `Usage: tidings backup --out <dir> [--json]

Backs up the instance into a new, empty folder while the server keeps running. On SQLite: a
consistent snapshot of the database taken with SQLite's online backup API (tidings.db) and every
upload it lists. On PostgreSQL: the uploads; back the database up with pg_dump alongside (see
docs/export-backup.md). manifest.json is written last: a folder without it is not a backup.
Reads the same settings as \`tidings serve\`.

Options:
  --out <dir>   The folder to create (must be empty or absent)
  --json        Print the manifest as JSON on stdout
  -h, --help    Show this help

Exit codes: 0 backed up, 1 the backup failed, 2 bad usage or configuration.`;

export const RESTORE_USAGE = `Usage: tidings restore <dir> [--force] [--json]

Restores a folder written by \`tidings backup\`: the SQLite database (checked with PRAGMA
integrity_check first) becomes the DATABASE_URL file, and the uploads go back into storage
(local disk or the bucket STORAGE_URL names). A PostgreSQL backup restores the uploads only;
restore the database with pg_restore. Stop the server first.

Options:
  --force       Replace a database file that already exists
  --json        Print a JSON summary on stdout
  -h, --help    Show this help

Exit codes: 0 restored, 1 the restore failed, 2 bad usage or configuration (no such backup,
a database already there without --force, a backup that fails its integrity check).`;

type Parsed = { values: { out?: string; force?: boolean; json?: boolean; help?: boolean }; positionals: string[] };

function parse(args: string[], usage: string, io: CommandIo, withPositional: boolean): Parsed | number {
  try {
    const parsed = parseArgs({
      args,
      options: { out: { type: "string" }, force: { type: "boolean" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: withPositional,
    });
    if (parsed.values.help === true) {
      io.stdout.write(`${usage}\n`);
      return 0;
    }
    return parsed;
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${usage}\n`);
    return 2;
  }
}

async function run(io: CommandIo, what: string, work: () => Promise<void>): Promise<number> {
  try {
    await work();
    return 0;
  } catch (error) {
    if (error instanceof BackupUsageError) {
      io.stderr.write(`${error.message}\n`);
      return 2;
    }
    io.stderr.write(`${what} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/**
 * `tidings backup --out <dir>`. Answers the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await backupCommand(["--out", "/backups/today"], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function backupCommand(args: string[], io: CommandIo): Promise<number> {
  const parsed = parse(args, BACKUP_USAGE, io, false);
  if (typeof parsed === "number") return parsed;
  const out = parsed.values.out;
  if (out === undefined || out === "") {
    io.stderr.write(`Give --out <dir>.\n\n${BACKUP_USAGE}\n`);
    return 2;
  }
  const settings = commandConfig(io);
  if (settings === undefined) return 2;
  const storage = await openStorage(settings);
  try {
    return await run(io, "Backup", async () => {
      const manifest = await backup(settings.databaseUrl, storage, out, { onProgress: stderrProgress(io, systemClock, "Copying uploads", "files") });
      if (parsed.values.json === true) io.stdout.write(`${JSON.stringify({ out, ...manifest })}\n`);
      else {
        for (const key of manifest.missing) io.stderr.write(`Not in storage any more (deleted after the snapshot?): ${key}\n`);
        io.stdout.write(
          `${manifest.database === "sqlite" ? "Database snapshot and" : "Database not included (PostgreSQL: use pg_dump);"} ${manifest.uploads} upload(s) written to ${out}.\n`,
        );
      }
    });
  } finally {
    await storage.close?.();
  }
}

/**
 * `tidings restore <dir>`. Answers the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await restoreCommand(["/backups/today", "--force"], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function restoreCommand(args: string[], io: CommandIo): Promise<number> {
  const parsed = parse(args, RESTORE_USAGE, io, true);
  if (typeof parsed === "number") return parsed;
  if (parsed.positionals.length !== 1) {
    io.stderr.write(`Give exactly one backup folder.\n\n${RESTORE_USAGE}\n`);
    return 2;
  }
  const dir = parsed.positionals[0]!;
  const settings = commandConfig(io);
  if (settings === undefined) return 2;
  const storage = await openStorage(settings);
  try {
    return await run(io, "Restore", async () => {
      const result = await restore(dir, settings.databaseUrl, storage, {
        force: parsed.values.force === true,
        onProgress: stderrProgress(io, systemClock, "Restoring uploads", "files"),
      });
      if (parsed.values.json === true) io.stdout.write(`${JSON.stringify({ from: dir, database: result.manifest.database, uploads: result.uploads })}\n`);
      else
        io.stdout.write(
          `${result.manifest.database === "sqlite" ? "Database and" : "Database not included (PostgreSQL: use pg_restore);"} ${result.uploads} upload(s) restored from ${dir}.\n`,
        );
    });
  } finally {
    await storage.close?.();
  }
}
