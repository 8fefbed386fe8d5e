import { parseArgs } from "node:util";
import type { ArchiveImportOptions } from "./archive-import-command.js";
import type { ImportCommandOptions } from "./import-format.js";
import { ARCHIVE_FORMAT, IMPORT_FORMATS } from "./import-formats.js";

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

/** What the arguments of `tidings import` ask for, or the usage mistake in them. */
export type ImportArguments =
  | { kind: "help" }
  | { kind: "usage"; message: string }
  | { kind: "archive"; file: string; options: ArchiveImportOptions }
  | { kind: "records"; path: string; options: ImportCommandOptions };

/** Reads the arguments of `tidings import`; a mistake answers `usage` with what to fix. */
export function parseImportArguments(args: string[]): ImportArguments {
  const usage = (message: string): ImportArguments => ({ kind: "usage", message });
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
    if (values.help === true) return { kind: "help" };
    if (values.format === undefined) return usage("--format is required.");
    if (values.format === ARCHIVE_FORMAT) {
      const notForArchives = (["app", "create-app", "status-map", "columns", "board", "board-map", "tag-map", "keep-emails", "dry-run", "strict"] as const).filter(
        (name) => values[name] !== undefined,
      );
      if (notForArchives.length > 0) return usage(`--format tidings takes its apps from the archive: ${notForArchives.map((name) => `--${name}`).join(", ")} cannot be used with it.`);
      if (positionals.length !== 1) return usage(positionals.length === 0 ? "Give the archive to import." : "Give one archive to import.");
      return { kind: "archive", file: positionals[0]!, options: { workspace: values.workspace, json: values.json === true } };
    } else if (IMPORT_FORMATS[values.format] === undefined) return usage(`Unknown format "${values.format}" (formats: ${[...Object.keys(IMPORT_FORMATS), ARCHIVE_FORMAT].join(", ")}).`);
    if (positionals.length !== 1) return usage(positionals.length === 0 ? "Give the file or folder to import." : "Give one file or folder to import.");
    if (values.app === undefined && values["create-app"] === undefined) return usage("--app <appKey> (or --create-app <name> --workspace <slug>) is required.");
    if (values["create-app"] !== undefined && values.workspace === undefined) return usage("--create-app needs --workspace <slug>.");
    if (values["create-app"] !== undefined && (values["create-app"].trim() === "" || values["create-app"].trim().length > 120)) return usage("--create-app needs a name of 1 to 120 characters.");
    if (values.app !== undefined && !APP_KEY.test(values.app)) return usage(`--app: "${values.app}" is not an app key (4 to 128 letters, digits, _ or -).`);
    return {
      kind: "records",
      path: positionals[0]!,
      options: {
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
      },
    };
  } catch (error) {
    return usage((error as Error).message);
  }
}
