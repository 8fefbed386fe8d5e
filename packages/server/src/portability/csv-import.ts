import fs from "node:fs";
import { parse } from "csv-parse";
import { checkColumnMapping, columnIndex, type Columns } from "./csv-columns.js";
import { csvRow } from "./csv-row.js";
import { ImportInputError, ImportMappingError } from "./import-errors.js";
import type { ImportRecord, Importer } from "./import-records.js";

/**
 * A CSV of requests (see docs/import.md for the template), streamed with csv-parse. Columns are
 * found by header (case and spacing ignored; `--columns field=Header` names others). A row
 * without a usable title, with a vote count that is not a whole number, a date that is not a
 * date, or an author email that is not an address is reported with its line and skipped.
 *
 * @example
 * ```ts
 * const source = await csvImporter("requests.csv", { columns: { title: "Subject" } });
 * ```
 */
export const csvImporter: Importer = async (file, options) => {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch {
    throw new ImportInputError(`cannot read ${file}`);
  }
  if (!stat.isFile()) throw new ImportInputError(`${file} is not a file (a CSV import reads one .csv file)`);
  checkColumnMapping(options.columns);
  const name = file.split(/[\\/]/).pop() ?? file;
  const header = await firstRecord(file, name);
  const { fields } = columnIndex(header, options.columns, name);
  return {
    totalBytes: stat.size,
    fieldKeys: [...fields.keys()],
    records: (onBytes) => csvRecords(file, options.columns, onBytes),
  };
};

/** The header row (the file's first record), read before the import starts so its columns can be checked. */
async function firstRecord(file: string, name: string): Promise<string[]> {
  const input = fs.createReadStream(file);
  const parser = input.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, to: 1 }));
  try {
    for await (const record of parser as AsyncIterable<string[]>) return record;
  } catch (error) {
    throw new ImportInputError(`${name} line 1: ${(error as Error).message}`);
  } finally {
    input.destroy();
  }
  throw new ImportInputError(`${name} is empty (expected a header row; see docs/import.md)`);
}

async function* csvRecords(file: string, mapping: Record<string, string>, onBytes: (n: number) => void): AsyncGenerator<ImportRecord> {
  const name = file.split(/[\\/]/).pop() ?? file;
  const input = fs.createReadStream(file);
  let bytes = 0;
  input.on("data", (chunk) => {
    bytes += chunk.length;
    onBytes(bytes);
  });
  const parser = input.pipe(parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: false }));
  let index: Columns | null = null;
  let previousEnd = 0;
  let previousEmpty = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number; empty_lines: number } }>) {
      // A record starts after the previous one and any blank lines between them.
      const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
      previousEnd = info.lines;
      previousEmpty = info.empty_lines;
      if (index === null) {
        index = columnIndex(record, mapping, name);
        if (index.index.title === undefined) {
          throw new ImportInputError(`${name} line ${line}: no "title" column in the header (name it with --columns title=<header>)`);
        }
        continue;
      }
      yield csvRow(record, index, `${name} line ${line}`);
    }
  } catch (error) {
    if (error instanceof ImportInputError || error instanceof ImportMappingError) throw error;
    // csv-parse stops at malformed quoting: nothing after that point can be trusted.
    const where = (error as { lines?: number }).lines;
    throw new ImportInputError(`${name}${where === undefined ? "" : ` line ${where}`}: ${(error as Error).message}`);
  }
  if (index === null) throw new ImportInputError(`${name} is empty (expected a header row; see docs/import.md)`);
}
