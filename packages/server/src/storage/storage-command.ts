import path from "node:path";
import { parseArgs } from "node:util";
import { commandConfig, type CommandIo } from "../command-io.js";
import { listLocalUploads, migrateUploads, type MigrationStep, type SizedStorage } from "./migrate-uploads.js";
import { progressReporter } from "./migration-progress.js";
import { openStorage } from "./open-storage.js";

export const STORAGE_USAGE = `Usage: tidings storage migrate [--from <folder>] [--json]

Copies the uploads kept on local disk into the S3-compatible bucket that STORAGE_URL
(s3://bucket/prefix, with S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE, AWS_ACCESS_KEY_ID and
AWS_SECRET_ACCESS_KEY) names. An object already in the bucket with the same size is skipped, so
the command is safe to run again, and a run that stopped half way picks up where it was.
Local files are left as they are.

Options:
  --from <folder>  Folder to copy from (default: DATA_DIR/uploads)
  --json           Print the summary as JSON on stdout
  -h, --help       Show this help

Exit codes: 0 every upload is in the bucket, 1 some copies failed (run it again),
2 bad usage or configuration.`;

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function migrate(args: string[], io: CommandIo): Promise<number> {
  let options: { from?: string; json?: boolean; help?: boolean };
  try {
    options = parseArgs({
      args,
      options: { from: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${STORAGE_USAGE}\n`);
    return 2;
  }
  if (options.help === true) {
    io.stdout.write(`${STORAGE_USAGE}\n`);
    return 0;
  }
  const config = commandConfig(io);
  if (config === undefined) return 2;
  if (config.storage.kind !== "s3") {
    io.stderr.write("STORAGE_URL: set it to the s3://bucket/prefix to copy the uploads into (see --help).\n");
    return 2;
  }
  const from = path.resolve(options.from ?? path.join(config.dataDir, "uploads"));
  const target = (await openStorage(config)) as SizedStorage;
  try {
    try {
      await target.ping?.();
    } catch (error) {
      io.stderr.write(`Cannot reach bucket "${config.storage.bucket}": ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    const listed = await listLocalUploads(from);
    const progress = progressReporter(io, listed.objects.length);
    const failures: MigrationStep[] = [];
    const summary = await migrateUploads(
      from,
      target,
      (step, counts) => {
        if (step.outcome === "failed") failures.push(step);
        progress.step(step, counts);
      },
      listed,
    );
    progress.stop();
    const destination = `s3://${config.storage.bucket}${config.storage.prefix === "" ? "" : `/${config.storage.prefix}`}`;
    if (options.json === true) {
      io.stdout.write(`${JSON.stringify({ from, to: destination, ...summary, failures: failures.map((f) => ({ key: f.key, error: f.error })) })}\n`);
    } else {
      for (const failure of failures) io.stderr.write(`Failed: ${failure.key}: ${failure.error ?? "unknown error"}\n`);
      if (summary.ignored.length > 0) io.stderr.write(`Left alone ${summary.ignored.length} file(s) that are not uploads, such as ${summary.ignored[0]}\n`);
      io.stdout.write(
        `${summary.total === 0 ? `No uploads under ${from}.` : `Copied ${summary.copied} upload(s) (${megabytes(summary.bytesCopied)}) from ${from} to ${destination}; ${summary.skipped} already there, ${summary.failed} failed.`}\n`,
      );
      if (summary.failed > 0) io.stdout.write("Run the command again to retry the failed copies.\n");
    }
    return summary.failed > 0 ? 1 : 0;
  } finally {
    await target.close?.();
  }
}

/**
 * `tidings storage <subcommand>`: today `migrate`, which copies local uploads into the bucket.
 * Answers the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await storageCommand(["migrate", "--json"], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function storageCommand(args: string[], io: CommandIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === "migrate") return migrate(rest, io);
  if (subcommand === "--help" || subcommand === "-h" || subcommand === "help") {
    io.stdout.write(`${STORAGE_USAGE}\n`);
    return 0;
  }
  if (subcommand === undefined) {
    io.stderr.write(`${STORAGE_USAGE}\n`);
    return 2;
  }
  io.stderr.write(`Unknown storage command "${subcommand}".\n\n${STORAGE_USAGE}\n`);
  return 2;
}
