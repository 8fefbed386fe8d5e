import { systemClock } from "../clock.js";
import { commandConfig, type CommandIo } from "../command-io.js";
import { openStorage } from "../storage/open-storage.js";
import { parseBackupArgs, runBackupWork } from "./backup-cli.js";
import { restore } from "./restore.js";
import { stderrProgress } from "./count-progress.js";

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

/**
 * `tidings restore <dir>`. Answers the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await restoreCommand(["/backups/today", "--force"], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function restoreCommand(args: string[], io: CommandIo): Promise<number> {
  const parsed = parseBackupArgs(args, RESTORE_USAGE, io, true);
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
    return await runBackupWork(io, "Restore", async () => {
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
