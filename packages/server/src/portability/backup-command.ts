import { systemClock } from "../clock.js";
import { commandConfig, type CommandIo } from "../command-io.js";
import { openStorage } from "../storage/open-storage.js";
import { parseBackupArgs, runBackupWork } from "./backup-cli.js";
import { backup } from "./backup.js";
import { stderrProgress } from "./count-progress.js";

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

/**
 * `tidings backup --out <dir>`. Answers the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await backupCommand(["--out", "/backups/today"], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function backupCommand(args: string[], io: CommandIo): Promise<number> {
  const parsed = parseBackupArgs(args, BACKUP_USAGE, io, false);
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
    return await runBackupWork(io, "Backup", async () => {
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
