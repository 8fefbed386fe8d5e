import { cannyImporter } from "./canny-import.js";
import { csvImporter } from "./csv-import.js";
import { fiderImporter } from "./fider-import.js";
import type { ImportFormat } from "./import-format.js";
import { recordsFormat } from "./records-format.js";

/** `--format tidings`: an archive of `tidings export`, read by {@link importArchiveFile} with its own options. */
export const ARCHIVE_FORMAT = "tidings";
const ARCHIVE_SUMMARY = "an archive written by `tidings export`: its apps with their ids (--workspace <slug> puts them in that workspace)";

/** The formats `tidings import --format` knows, by name; other formats register here. */
export const IMPORT_FORMATS: Record<string, ImportFormat> = {
  csv: recordsFormat("a CSV file of requests (docs/import.md has the template)", csvImporter),
  canny: recordsFormat("a folder of Canny API pages: posts*.json, comments*.json, votes*.json", cannyImporter),
  fider: recordsFormat("Fider's unzipped backup folder (posts, comments, voters) or its posts.csv", fiderImporter),
};

/** The help text of `tidings import`, listing every format. */
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
