import { parseArgs } from "node:util";
import type { Kysely } from "kysely";
import { createApp, type AppRow } from "../apps/apps.js";
import { findAppByKey } from "../apps/app-keys.js";
import { systemClock, type Clock } from "../clock.js";
import type { Config } from "../config.js";
import { migrateToLatest, openDatabase, type Db, type DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { commandConfig, type CommandIo } from "../command-io.js";
import { cannyImporter } from "./canny-import.js";
import { csvImporter } from "./csv-import.js";
import { fiderImporter } from "./fider-import.js";
import { importArchiveFile, type ArchiveImportOptions } from "./archive-import-command.js";
import { ImportInputError, ImportMappingError, type Importer } from "./import-records.js";
import { ImportWriter, type ImportCounts } from "./import-writer.js";
import { createReporter, progressMode, type ProgressReporter } from "./progress.js";
import { statusColumns, StatusMapError } from "./status-columns.js";

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

/** Everything a format's import needs, inside the import's one transaction. */
export interface ImportContext {
  trx: Kysely<Database>;
  dialect: DialectName;
  clock: Clock;
  app: AppRow;
  /** The positional argument: a file or a folder. */
  path: string;
  options: ImportCommandOptions;
  progress: ProgressReporter;
  /** Reports a bad row; throws when --strict (the transaction then rolls back). */
  issue(at: string, message: string): void;
}

/** What a format's import did (or, on a dry run, would do). */
export interface ImportResult {
  counts: ImportCounts;
}

/** One `--format`: how to import it. Registered in {@link IMPORT_FORMATS}. */
export interface ImportFormat {
  /** One line for --help. */
  summary: string;
  /**
   * Checks the input before the transaction opens (missing file, wrong shape) by throwing
   * {@link ImportInputError}; answers the import to run inside it.
   */
  open(path: string, options: ImportCommandOptions): Promise<(context: ImportContext) => Promise<ImportResult>>;
}

export interface ImportCommandOptions {
  format: string;
  app: string | undefined;
  createApp: string | undefined;
  workspace: string | undefined;
  dryRun: boolean;
  strict: boolean;
  json: boolean;
  keepEmails: boolean;
  statusMap: Record<string, string>;
  columns: Record<string, string>;
  /** `--board`: where requests go whose source names no board. */
  board: string | undefined;
  boardMap: Record<string, string>;
  tagMap: Record<string, string>;
}

/**
 * A format whose importer reads records (requests, comments, votes) for {@link ImportWriter}.
 *
 * @example
 * ```ts
 * IMPORT_FORMATS.csv = recordsFormat("a CSV of requests", csvImporter);
 * ```
 */
export function recordsFormat(summary: string, importer: Importer): ImportFormat {
  return {
    summary,
    async open(path, options) {
      const source = await importer(path, { columns: options.columns });
      return async (ctx) => {
        const statuses = await statusColumns(ctx.trx, ctx.app.id, ctx.options.statusMap);
        const unmapped = new Set<string>();
        const writer = await ImportWriter.open(ctx.trx, ctx.dialect, ctx.clock, {
          appId: ctx.app.id,
          source: ctx.options.format,
          keepEmails: ctx.options.keepEmails,
          boards: { target: ctx.options.board, map: ctx.options.boardMap },
          tagMap: ctx.options.tagMap,
          fieldKeys: source.fieldKeys ?? [],
          onNote: (message) => ctx.progress.note(message),
          resolveStatus: (status) => {
            const target = statuses.resolve(status);
            if (!target.known && status !== null && !unmapped.has(status)) {
              unmapped.add(status);
              ctx.progress.note(`status "${status}" is not mapped to a column: those requests go to the review column (map it with --status-map)`);
            }
            return target;
          },
          onIssue: (at, message) => ctx.issue(at, message),
        });
        let bytes = 0;
        let rows = 0;
        const show = () =>
          ctx.progress.update(bytes, {
            requests: writer.counts.requests + writer.counts.requestsExisting,
            comments: writer.counts.comments + writer.counts.commentsExisting,
            votes: writer.counts.votes + writer.counts.votesExisting,
          });
        ctx.progress.start(source.totalBytes);
        for await (const record of source.records((n) => {
          bytes = n;
        })) {
          if (record.kind === "issue") ctx.issue(record.at, record.message);
          else if (record.kind === "request") await writer.request(record);
          else if (record.kind === "comment") await writer.comment(record);
          else await writer.vote(record);
          if (++rows % 500 === 0) show();
        }
        const counts = await writer.finish();
        bytes = source.totalBytes;
        show();
        return { counts };
      };
    },
  };
}

/** `--format tidings`: an archive of `tidings export`, read by {@link importArchiveFile} with its own options. */
const ARCHIVE_FORMAT = "tidings";
const ARCHIVE_SUMMARY = "an archive written by `tidings export`: its apps with their ids (--workspace <slug> puts them in that workspace)";

/** The formats `tidings import --format` knows, by name; other formats register here. */
export const IMPORT_FORMATS: Record<string, ImportFormat> = {
  csv: recordsFormat("a CSV file of requests (docs/import.md has the template)", csvImporter),
  canny: recordsFormat("a folder of Canny API pages: posts*.json, comments*.json, votes*.json", cannyImporter),
  fider: recordsFormat("Fider's unzipped backup folder (posts, comments, voters) or its posts.csv", fiderImporter),
};

export function importUsage(): string {
  const formats = [...Object.entries(IMPORT_FORMATS).map(([name, f]) => [name, f.summary] as const), [ARCHIVE_FORMAT, ARCHIVE_SUMMARY] as const]
    .map(([name, summary]) => `  ${name.padEnd(8)} ${summary}`)
    .join("\n");
  return `Usage: tidings import --format <format> --app <appKey> [options] <path>
       tidings import --format tidings [--workspace <slug>] [--json] <archive.jsonl>

Imports feature requests, their votes and comments, boards, tags and custom field values into an
app, reading the same settings as \`tidings serve\` (DATABASE_URL, DATA_DIR). Running the same
import again changes nothing.

Formats:
${formats}

Options:
  --format <name>         The format of <path> (required)
  --app <appKey>          The app to import into
  --create-app <name>     Create the app (in --workspace) when --app is not given or not found
  --workspace <slug>      The workspace --create-app creates the app in
  --status-map <list>     Map source statuses to columns: "under review=planned,closed=declined"
                          (a column's slug or name, or "declined"); defaults in docs/import.md
  --columns <list>        CSV: name the header of a field: "title=Subject,votes=Upvotes,field.plan=Plan"
  --board <board>         The board (slug or name) of requests whose source names none
                          (default: the app's default board)
  --board-map <list>      Place source boards on the app's boards: "Ideas=feature-requests,Bugs=bugs"
  --tag-map <list>        Rename or merge source tags ("UX=Design"), or leave one off ("wip=")
  --keep-emails           Keep authors' email addresses (by default only a hash keys them)
  --dry-run               Read everything and report what would change; write nothing
  --strict                Stop at the first bad row and write nothing (default: report and skip it)
  --json                  Print progress, issues and the summary as JSON lines on stdout
  -h, --help              Show this help

Exit codes: 0 imported, 1 nothing written (unreadable input, --strict stop, database error),
2 bad usage or configuration, 3 imported with some rows skipped.`;
}

/** `a=b,c=d` → { a: "b", c: "d" }; throws on a pair without `=`, or with nothing after it unless `emptyTarget`. */
export function parsePairs(option: string, value: string | undefined, emptyTarget = false): Record<string, string> {
  const result: Record<string, string> = {};
  if (value === undefined) return result;
  for (const pair of value.split(",")) {
    if (pair.trim() === "") continue;
    const at = pair.indexOf("=");
    const to = pair.slice(at + 1).trim();
    if (at <= 0 || pair.slice(0, at).trim() === "" || (to === "" && !emptyTarget)) throw new Error(`${option}: "${pair}" is not of the form from=to`);
    result[pair.slice(0, at).trim()] = to;
  }
  return result;
}

/** What an app key looks like (as the server accepts them). */
const APP_KEY = /^[A-Za-z0-9_-]{4,128}$/;

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
  let options: ImportCommandOptions;
  let path: string;
  let archive: { file: string; options: ArchiveImportOptions } | undefined;
  const runArchive = async (what: { file: string; options: ArchiveImportOptions }) => {
    const config = commandConfig(io);
    return config === undefined ? EXIT.usage : importArchiveFile(config, what.file, what.options, io, deps);
  };
  try {
    const { values, positionals } = parseArgs({
      args,
      options: {
        format: { type: "string" },
        app: { type: "string" },
        "create-app": { type: "string" },
        workspace: { type: "string" },
        "status-map": { type: "string" },
        columns: { type: "string" },
        board: { type: "string" },
        "board-map": { type: "string" },
        "tag-map": { type: "string" },
        "keep-emails": { type: "boolean" },
        "dry-run": { type: "boolean" },
        strict: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: true,
    });
    if (values.help === true) {
      io.stdout.write(`${importUsage()}\n`);
      return EXIT.ok;
    }
    if (values.format === undefined) return usage("--format is required.");
    if (values.format === ARCHIVE_FORMAT) {
      const notForArchives = (["app", "create-app", "status-map", "columns", "board", "board-map", "tag-map", "keep-emails", "dry-run", "strict"] as const).filter(
        (name) => values[name] !== undefined,
      );
      if (notForArchives.length > 0) return usage(`--format tidings takes its apps from the archive: ${notForArchives.map((name) => `--${name}`).join(", ")} cannot be used with it.`);
      if (positionals.length !== 1) return usage(positionals.length === 0 ? "Give the archive to import." : "Give one archive to import.");
      archive = { file: positionals[0]!, options: { workspace: values.workspace, json: values.json === true } };
    } else if (IMPORT_FORMATS[values.format] === undefined) return usage(`Unknown format "${values.format}" (formats: ${[...Object.keys(IMPORT_FORMATS), ARCHIVE_FORMAT].join(", ")}).`);
    if (archive !== undefined) return runArchive(archive);
    if (positionals.length !== 1) return usage(positionals.length === 0 ? "Give the file or folder to import." : "Give one file or folder to import.");
    if (values.app === undefined && values["create-app"] === undefined) return usage("--app <appKey> (or --create-app <name> --workspace <slug>) is required.");
    if (values["create-app"] !== undefined && values.workspace === undefined) return usage("--create-app needs --workspace <slug>.");
    if (values["create-app"] !== undefined && (values["create-app"].trim() === "" || values["create-app"].trim().length > 120)) return usage("--create-app needs a name of 1 to 120 characters.");
    if (values.app !== undefined && !APP_KEY.test(values.app)) return usage(`--app: "${values.app}" is not an app key (4 to 128 letters, digits, _ or -).`);
    path = positionals[0]!;
    options = {
      format: values.format,
      app: values.app,
      createApp: values["create-app"]?.trim(),
      workspace: values.workspace,
      dryRun: values["dry-run"] === true,
      strict: values.strict === true,
      json: values.json === true,
      keepEmails: values["keep-emails"] === true,
      statusMap: parsePairs("--status-map", values["status-map"]),
      columns: parsePairs("--columns", values.columns),
      board: values.board,
      boardMap: parsePairs("--board-map", values["board-map"]),
      tagMap: parsePairs("--tag-map", values["tag-map"], true),
    };
  } catch (error) {
    return usage((error as Error).message);
  }
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

/** One problem on the line, several one per line. */
function mappingFailure(error: ImportMappingError): string {
  const [only, ...more] = error.problems;
  if (more.length === 0) return `Cannot import: ${only ?? error.message}. Nothing was written.`;
  return `Cannot import:\n${error.problems.map((p) => `  ${p}`).join("\n")}\nNothing was written.`;
}

function report(io: CommandIo, options: ImportCommandOptions, target: { app: AppRow; created: boolean }, result: ImportResult, skipped: number): void {
  const c = result.counts;
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({ type: "summary", dryRun: options.dryRun, format: options.format, app: { key: target.app.appKey, name: target.app.name, created: target.created }, counts: c, skipped })}\n`,
    );
    return;
  }
  const verb = options.dryRun ? "Would import" : "Imported";
  const app = `${target.created ? (options.dryRun ? "a new app" : "new app") : "app"} "${target.app.name}" (${target.app.appKey})`;
  const lines = [
    `${verb} into ${app}:`,
    `  requests  ${c.requests} new, ${c.requestsExisting} already imported`,
    `  votes     ${c.votes} new, ${c.votesExisting} already there, plus ${c.importedVotes} counted without a voter`,
    `  comments  ${c.comments} new, ${c.commentsExisting} already imported`,
    `  end users ${c.endUsers} new`,
    `  boards    ${c.boards} new`,
    `  tags      ${c.tags} new`,
  ];
  if (skipped > 0) lines.push(`${skipped} row(s) skipped (listed above).`);
  if (options.dryRun) lines.push("Dry run: nothing was written.");
  io.stdout.write(`${lines.join("\n")}\n`);
}
