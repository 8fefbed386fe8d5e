import type { Kysely } from "kysely";
import type { AppRow } from "../apps/app-row.js";
import { createApp } from "../apps/apps.js";
import { findAppByKey } from "../apps/app-keys.js";
import { systemClock, type Clock } from "../clock.js";
import type { Config } from "../config.js";
import { migrateToLatest } from "../db/migrate.js";
import { openDatabase, type Db } from "../db/database.js";
import { refreshPlannerStatistics } from "../db/planner-statistics.js";
import type { Database } from "../db/schema.js";
import { commandConfig, type CommandIo } from "../command-io.js";
import { importArchiveFile } from "./archive-import-command.js";
import { parseImportArguments } from "./import-arguments.js";
import type { ImportCommandOptions, ImportContext, ImportResult } from "./import-format.js";
import { IMPORT_FORMATS, importUsage } from "./import-formats.js";
import { ImportInputError, ImportMappingError } from "./import-errors.js";
import { mappingFailure, report } from "./import-report.js";
import { createReporter, progressMode } from "./progress.js";
import { StatusMapError } from "./status-columns.js";

/** Exit codes of `tidings import`; scripts may rely on them. */
export const EXIT = {
  /** Everything was imported (or, with --dry-run, would be). */
  ok: 0,
  /** Nothing was written: the input could not be read, --strict met a bad row, or the database failed. */
  failed: 1,
  /** Bad usage or configuration (an unknown app, column, board or custom field); nothing was written. */
  usage: 2,
  /** Imported, but some rows were reported and skipped. */
  partial: 3,
} as const;

class StrictStop extends Error {}
/** The app or workspace named on the command line is not there. */
class TargetMissing extends Error {}
class DryRunDone extends Error {
  constructor(readonly result: ImportResult) {
    super("dry run");
  }
}

/** Dependencies tests replace: the clock, and the database (a test's own). */
export interface ImportDeps {
  clock?: Clock;
  /** Opens the database of `config`; the command closes what it opened, never a given one. */
  openDb?: (config: Config) => Db;
}

async function resolveApp(trx: Kysely<Database>, clock: Clock, options: ImportCommandOptions): Promise<{ app: AppRow; created: boolean } | string> {
  if (options.app !== undefined) {
    const found = await findAppByKey(trx, options.app);
    if (found !== undefined) return { app: found.app, created: false };
    if (options.createApp === undefined) return `no app with key "${options.app}" (create it with --create-app <name> --workspace <slug>)`;
  }
  const workspace = await trx.selectFrom("workspaces").select("id").where("slug", "=", options.workspace ?? "").executeTakeFirst();
  if (workspace === undefined) return `no workspace with slug "${options.workspace ?? ""}"`;
  const { row } = await createApp(trx, clock, workspace.id, { name: options.createApp ?? "" }, options.app === undefined ? {} : { appKey: options.app });
  return { app: row, created: true };
}

/**
 * `tidings import`: parses the arguments, opens the format's input, and runs the import in one
 * transaction (rolled back on --dry-run, on a --strict stop, and on any failure). Answers the
 * exit code ({@link EXIT}).
 *
 * @example
 * ```ts
 * process.exitCode = await importCommand(["--format", "csv", "--app", "app_x", "requests.csv"], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function importCommand(args: string[], io: CommandIo, deps: ImportDeps = {}): Promise<number> {
  const usage = (message: string) => {
    io.stderr.write(`${message}\n\n${importUsage()}\n`);
    return EXIT.usage;
  };
  const parsed = parseImportArguments(args);
  if (parsed.kind === "help") {
    io.stdout.write(`${importUsage()}\n`);
    return EXIT.ok;
  }
  if (parsed.kind === "usage") return usage(parsed.message);
  if (parsed.kind === "archive") {
    const config = commandConfig(io);
    return config === undefined ? EXIT.usage : importArchiveFile(config, parsed.file, parsed.options, io, deps);
  }
  const { options, path } = parsed;
  const config = commandConfig(io);
  if (config === undefined) return EXIT.usage;
  const clock = deps.clock ?? systemClock;
  const format = IMPORT_FORMATS[options.format]!;
  const fail = (message: string, code: number = EXIT.failed) => {
    if (options.json) io.stdout.write(`${JSON.stringify({ type: "error", message })}\n`);
    else io.stderr.write(`${message}\n`);
    return code;
  };
  let run: (context: ImportContext) => Promise<ImportResult>;
  try {
    run = await format.open(path, options);
  } catch (error) {
    if (error instanceof ImportInputError) return fail(`Cannot import: ${error.message}. Nothing was written.`);
    if (error instanceof ImportMappingError) return fail(mappingFailure(error), EXIT.usage);
    throw error;
  }
  const db = deps.openDb?.(config) ?? openDatabase(config.databaseUrl);
  const progress = createReporter({ mode: progressMode(options.json, io.stderr), stderr: io.stderr, stdout: io.stdout, clock, label: options.dryRun ? "Reading" : "Importing", unit: "bytes" });
  // Only counted: a bad input may hold millions of bad rows, each already printed.
  let skipped = 0;
  let target: { app: AppRow; created: boolean } | undefined;
  try {
    if (deps.openDb === undefined) await migrateToLatest(db);
    const result = await db.kysely
      .transaction()
      .execute(async (trx) => {
        const resolved = await resolveApp(trx, clock, options);
        if (typeof resolved === "string") throw new TargetMissing(resolved);
        target = resolved;
        const outcome = await run({
          trx,
          dialect: db.dialect,
          clock,
          app: resolved.app,
          path,
          options,
          progress,
          issue: (at, message) => {
            skipped += 1;
            progress.issue({ at, message });
            if (options.strict) throw new StrictStop(`${at}: ${message}`);
          },
        });
        if (options.dryRun) throw new DryRunDone(outcome);
        return outcome;
      })
      .catch((error: unknown) => {
        if (error instanceof DryRunDone) return error.result;
        throw error;
      });
    progress.stop();
    if (!options.dryRun) await refreshPlannerStatistics(db);
    report(io, options, target!, result, skipped);
    return skipped > 0 ? EXIT.partial : EXIT.ok;
  } catch (error) {
    progress.stop();
    if (error instanceof StrictStop) return fail(`Stopped at ${error.message} (--strict). Nothing was written.`);
    if (error instanceof TargetMissing) return fail(`Cannot import: ${error.message}. Nothing was written.`, EXIT.usage);
    if (error instanceof ImportInputError) return fail(`Cannot import: ${error.message}. Nothing was written.`);
    if (error instanceof StatusMapError) return fail(`--status-map: ${error.message}. Nothing was written.`, EXIT.usage);
    if (error instanceof ImportMappingError) return fail(mappingFailure(error), EXIT.usage);
    return fail(`Import failed: ${error instanceof Error ? error.message : String(error)}. Nothing was written.`);
  } finally {
    if (deps.openDb === undefined) await db.destroy();
  }
}
