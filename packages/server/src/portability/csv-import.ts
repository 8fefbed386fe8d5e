import { createHash } from "node:crypto";
import fs from "node:fs";
import { parse } from "csv-parse";
import { ImportInputError, ImportMappingError, isoDate, type ImportRecord, type Importer } from "./import-records.js";

/** The fields of a request a CSV can carry, with the header each is read from by default. */
export const CSV_FIELDS = ["id", "title", "description", "status", "votes", "author_email", "author_name", "created_at", "board", "tags"] as const;
export type CsvField = (typeof CSV_FIELDS)[number];

/** Longest title and description accepted (a request's limits, with room for long write-ups). */
export const MAX_TITLE = 400;
export const MAX_DESCRIPTION = 100_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Header names other products use for the same field, tried after the field's own name. */
const ALIASES: Record<CsvField, string[]> = {
  id: ["number", "post id", "post_id"],
  title: ["name", "subject"],
  description: ["details", "body", "content"],
  status: ["column", "state", "stage"],
  votes: ["votes_count", "vote count", "score", "upvotes"],
  author_email: ["email", "requester email"],
  author_name: ["created_by", "author", "requester"],
  created_at: ["created", "date", "created at"],
  board: ["board name"],
  tags: ["labels", "categories"],
};

/** A custom field column: `field.<key>`, the header `tidings export --format csv` writes. */
const FIELD_HEADER = /^field\.(.+)$/i;
const FIELD_KEY = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;
/** An archived field's column in our export; archived fields take no new values, so it is not read. */
const ARCHIVED_SUFFIX = /\s+\(archived\)$/i;

/** What a CSV's header says: where each request field and each custom field is. */
interface Columns {
  index: Partial<Record<CsvField, number>>;
  /** Custom field key → its column. */
  fields: Map<string, number>;
}

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
  for (const field of Object.keys(options.columns)) {
    const key = FIELD_HEADER.exec(field)?.[1];
    if (key !== undefined && !FIELD_KEY.test(key)) throw new ImportMappingError(`--columns: "${field}" does not name a custom field key (field.<key>: lowercase letters, digits, - and _)`);
    if (key === undefined && !(CSV_FIELDS as readonly string[]).includes(field)) {
      throw new ImportMappingError(`--columns: unknown field "${field}" (fields: ${CSV_FIELDS.join(", ")}, or field.<key> for a custom field)`);
    }
  }
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

/**
 * A cell as it was before our export guarded it: `tidings export --format csv` puts a `'` before
 * text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`), and the import takes it off.
 */
function unguarded(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

function headerKey(text: string): string {
  return text.replace(/^\uFEFF/, "").trim().toLowerCase().replace(/[\s-]+/g, "_");
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

function columnIndex(header: string[], mapping: Record<string, string>, name: string): Columns {
  const keys = header.map(headerKey);
  const index: Partial<Record<CsvField, number>> = {};
  for (const field of CSV_FIELDS) {
    const wanted = mapping[field] !== undefined ? [headerKey(mapping[field])] : [field, ...ALIASES[field].map(headerKey)];
    const at = wanted.map((w) => keys.indexOf(w)).find((i) => i >= 0);
    if (at !== undefined) index[field] = at;
  }
  const fields = new Map<string, number>();
  // `--columns field.<key>=Header`: that header is the field's column.
  const mappedHeaders = new Map(Object.entries(mapping).flatMap(([field, to]) => (FIELD_HEADER.test(field) ? [[headerKey(to), { key: field.slice("field.".length), to }] as const] : [])));
  header.forEach((raw, i) => {
    const text = raw.replace(/^\uFEFF/, "").trim();
    const mapped = mappedHeaders.get(headerKey(text));
    if (mapped !== undefined) {
      fields.set(mapped.key, i);
      return;
    }
    const key = FIELD_HEADER.exec(text)?.[1]?.trim();
    if (key === undefined || ARCHIVED_SUFFIX.test(key)) return;
    if (!FIELD_KEY.test(key)) throw new ImportMappingError(`${name}: column "${text}" does not name a custom field key (field.<key>: lowercase letters, digits, - and _)`);
    if (!fields.has(key)) fields.set(key, i);
  });
  for (const { key, to } of mappedHeaders.values()) {
    if (!fields.has(key)) throw new ImportMappingError(`--columns: ${name} has no column "${to}" for field.${key}`);
  }
  return { index, fields };
}

function csvRow(record: string[], { index, fields }: Columns, at: string): ImportRecord {
  const cell = (field: CsvField): string => {
    const i = index[field];
    return i === undefined ? "" : unguarded(record[i] ?? "");
  };
  const issue = (message: string): ImportRecord => ({ kind: "issue", at, message });
  const title = cell("title").trim();
  if (title === "") return issue("the title is empty");
  if (title.length > MAX_TITLE) return issue(`the title is longer than ${MAX_TITLE} characters`);
  const description = cell("description");
  if (description.length > MAX_DESCRIPTION) return issue(`the description is longer than ${MAX_DESCRIPTION} characters`);
  const votesText = cell("votes").trim();
  let votes: number | null = null;
  if (votesText !== "") {
    if (!/^\d{1,9}$/.test(votesText)) return issue(`votes "${votesText}" is not a whole number`);
    votes = Number(votesText);
  }
  const createdText = cell("created_at").trim();
  const createdAt = createdText === "" ? null : isoDate(createdText);
  if (createdText !== "" && createdAt === null) return issue(`created_at "${createdText}" is not a date (use ISO 8601, e.g. 2024-03-01T09:30:00Z)`);
  const email = cell("author_email").trim();
  if (email !== "" && (email.length > 254 || !EMAIL.test(email))) return issue(`author_email "${email}" is not an email address`);
  const name = cell("author_name").trim();
  // Without an id column a row is known by what it says: the same row imports once.
  const id = cell("id").trim() || `sha256:${createHash("sha256").update(JSON.stringify([title, description, email, createdText])).digest("hex")}`;
  return {
    kind: "request",
    at,
    sourceId: id,
    title,
    description,
    status: cell("status").trim() || null,
    createdAt,
    author: email === "" && name === "" ? null : { sourceId: null, email: email || null, name: name || null, isTeam: false },
    votes,
    board: cell("board").trim() === "" ? null : { name: cell("board").trim(), slug: null, private: null },
    tags: cell("tags")
      .split(/[,;]/)
      .map((t) => t.trim())
      .filter((t) => t !== "")
      .map((name) => ({ name, color: null, visibility: null })),
    category: null,
    fields: Object.fromEntries([...fields].map(([key, i]) => [key, unguarded(record[i] ?? "")])),
  };
}
