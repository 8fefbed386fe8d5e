import { parseArgs } from "node:util";
import type { CommandIo } from "../command-io.js";
import { BackupUsageError } from "./backup-error.js";

/** The options of `tidings backup` and `tidings restore`: one set for both commands. */
export type ParsedBackupArgs = { values: { out?: string; force?: boolean; json?: boolean; help?: boolean }; positionals: string[] };

/** The arguments of either command (the two share one set of options); a number is the exit code to answer at once. */
export function parseBackupArgs(args: string[], usage: string, io: CommandIo, withPositional: boolean): ParsedBackupArgs | number {
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

/** Runs the command's work and answers its exit code: 2 for a {@link BackupUsageError}, 1 for any other failure. */
export async function runBackupWork(io: CommandIo, what: string, work: () => Promise<void>): Promise<number> {
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
