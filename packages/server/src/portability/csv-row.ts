import { createHash } from "node:crypto";
import type { Columns, CsvField } from "./csv-columns.js";
import type { ImportRecord } from "./import-records.js";
import { isoDate } from "./source-values.js";

/** Longest title and description accepted (a request's limits, with room for long write-ups). */
export const MAX_TITLE = 400;
export const MAX_DESCRIPTION = 100_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A cell as it was before our export guarded it: `tidings export --format csv` puts a `'` before
 * text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`), and the import takes it off.
 */
function unguarded(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/** A data row as a request, or as the issue that keeps it out (`at` names its line). */
export function csvRow(record: string[], { index, fields }: Columns, at: string): ImportRecord {
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
