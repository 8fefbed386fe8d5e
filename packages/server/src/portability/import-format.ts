import type { Kysely } from "kysely";
import type { AppRow } from "../apps/app-row.js";
import type { Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import type { ImportCounts } from "./import-state.js";
import type { ProgressReporter } from "./progress.js";

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

/** One `--format`: how to import it. Registered in `IMPORT_FORMATS` (import-formats.ts). */
export interface ImportFormat {
  /** One line for --help. */
  summary: string;
  /**
   * Checks the input before the transaction opens (missing file, wrong shape) by throwing
   * {@link ImportInputError}; answers the import to run inside it.
   */
  open(path: string, options: ImportCommandOptions): Promise<(context: ImportContext) => Promise<ImportResult>>;
}

/** The options of `tidings import` for a format of records, as parsed from its arguments. */
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
