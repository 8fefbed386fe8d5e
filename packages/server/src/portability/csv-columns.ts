import { ImportMappingError } from "./import-errors.js";

/** The fields of a request a CSV can carry, with the header each is read from by default. */
export const CSV_FIELDS = ["id", "title", "description", "status", "votes", "author_email", "author_name", "created_at", "board", "tags"] as const;
export type CsvField = (typeof CSV_FIELDS)[number];

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
export interface Columns {
  index: Partial<Record<CsvField, number>>;
  /** Custom field key → its column. */
  fields: Map<string, number>;
}

/** Refuses a `--columns` mapping that names neither a request field nor a custom field key. */
export function checkColumnMapping(columns: Record<string, string>): void {
  for (const field of Object.keys(columns)) {
    const key = FIELD_HEADER.exec(field)?.[1];
    if (key !== undefined && !FIELD_KEY.test(key)) throw new ImportMappingError(`--columns: "${field}" does not name a custom field key (field.<key>: lowercase letters, digits, - and _)`);
    if (key === undefined && !(CSV_FIELDS as readonly string[]).includes(field)) {
      throw new ImportMappingError(`--columns: unknown field "${field}" (fields: ${CSV_FIELDS.join(", ")}, or field.<key> for a custom field)`);
    }
  }
}

function headerKey(text: string): string {
  return text.replace(/^\uFEFF/, "").trim().toLowerCase().replace(/[\s-]+/g, "_");
}

/**
 * Where each request field and custom field is in `header`: under its own name, an alias, or the
 * header `--columns` maps it to. A `field.<key>` column must name a valid key.
 */
export function columnIndex(header: string[], mapping: Record<string, string>, name: string): Columns {
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
