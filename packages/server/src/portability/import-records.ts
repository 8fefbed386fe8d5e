/**
 * What every importer reads its source into: requests first, then comments and votes that point
 * at them by the source's ids. The writer (import-writer.ts) knows nothing of the formats.
 */

/** Someone in the source product: a request's author, a voter, a commenter. */
export interface SourcePerson {
  /** Their id in the source product, when it has one. */
  sourceId: string | null;
  email: string | null;
  name: string | null;
  /** A member of the team there (Canny admin, Fider collaborator or administrator). */
  isTeam: boolean;
}

export interface RequestRecord {
  kind: "request";
  /** Where it was read, for messages: `posts.csv line 14`, `posts-0.json item 3`. */
  at: string;
  sourceId: string;
  title: string;
  /** Markdown (or plain text), kept as it is. */
  description: string;
  /** The status name there; mapped to a column (see status-columns.ts). */
  status: string | null;
  /** Null when the source has no date: the time of the import is used. */
  createdAt: string | null;
  author: SourcePerson | null;
  /** The vote count shown there; votes without a voter record become imported votes. */
  votes: number | null;
  /** The board it was on there (Canny, a CSV's `board` column); null: the import's target board. */
  board: SourceBoard | null;
  /** Its tags there (Canny: the admins' tags; Fider: its tags; a CSV's `tags` column). */
  tags: SourceTag[];
  /** Canny's category, which its end users see and pick: a public tag here. */
  category: SourceTag | null;
  /** Custom field values as the source wrote them (a CSV's `field.<key>` columns), by field key. */
  fields: Record<string, string>;
}

/** A board in the source product. */
export interface SourceBoard {
  name: string;
  /** Its URL slug there, when known (matched against the app's board slugs). */
  slug: string | null;
  /** Private there (Canny's `isPrivate`); null when the input does not say. */
  private: boolean | null;
}

/** A tag (or Canny category) in the source product. */
export interface SourceTag {
  name: string;
  /** `#RRGGBB`, when the source has one. */
  color: string | null;
  /** Who sees it there; null when the input does not say (a CSV). */
  visibility: "public" | "team" | null;
}

export interface CommentRecord {
  kind: "comment";
  at: string;
  sourceId: string;
  requestSourceId: string;
  /** The comment this one answers, if any. */
  parentSourceId: string | null;
  author: SourcePerson | null;
  body: string;
  createdAt: string;
  /** Internal or private there: kept, but hidden from the public. */
  hidden: boolean;
}

export interface VoteRecord {
  kind: "vote";
  at: string;
  requestSourceId: string;
  voter: SourcePerson;
  createdAt: string;
}

/** A row that cannot be imported, reported and skipped (or, with --strict, fatal). */
export interface IssueRecord {
  kind: "issue";
  at: string;
  message: string;
}

export type ImportRecord = RequestRecord | CommentRecord | VoteRecord | IssueRecord;

/** An importer's reading of its input. */
export interface ImportSource {
  /** Bytes to read, for the progress display. */
  readonly totalBytes: number;
  /** The custom field keys the input has columns for, checked against the app before anything is written. */
  readonly fieldKeys?: readonly string[];
  /** The records in order (requests before what points at them); `onBytes` reports bytes read so far. */
  records(onBytes: (bytesRead: number) => void): AsyncIterable<ImportRecord>;
}

/** Options an importer may read. */
export interface ImporterOptions {
  /** CSV: our field name (or `field.<key>`) → the header naming it in the file (`--columns title=Subject`). */
  columns: Record<string, string>;
}

/** Opens a path as one format; throws {@link ImportInputError} when it is not that format. */
export type Importer = (path: string, options: ImporterOptions) => Promise<ImportSource>;

/** The input as a whole cannot be read (missing file, not the format); nothing is written. */
export class ImportInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportInputError";
  }
}

/**
 * The input cannot be placed in the app as asked: a board, tag or custom field it names (or that
 * an option maps it to) is not the app's, or would pass a limit. Nothing is written; exit 2.
 */
export class ImportMappingError extends Error {
  /** Each problem found, one sentence each (an import reports every unplaceable board and tag at once). */
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const list = typeof problems === "string" ? [problems] : problems;
    super(list.join("\n"));
    this.name = "ImportMappingError";
    this.problems = list;
  }
}

/**
 * How a board's or tag's name is compared with another: trimmed, case-insensitive.
 *
 * @example
 * ```ts
 * nameKey(" Feature Requests "); // "feature requests"
 * ```
 */
export function nameKey(name: string): string {
  return name.normalize("NFKC").trim().toLowerCase();
}

/**
 * A source timestamp as stored (ISO-8601 UTC), or null when it is not a date. Accepts ISO-8601
 * (with or without time or zone; no zone means UTC), and epoch milliseconds as numbers.
 *
 * @example
 * ```ts
 * isoDate("2024-03-01"); // "2024-03-01T00:00:00.000Z"
 * ```
 */
export function isoDate(value: unknown): string | null {
  if (typeof value === "number") {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  if (typeof value !== "string") return null;
  const text = value.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(text);
  if (match === null) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", zone = "Z"] = match;
  const normalizedZone = zone.toUpperCase() === "Z" ? "Z" : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const parsed = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${frac.slice(0, 4)}${normalizedZone}`);
  if (Number.isNaN(parsed.getTime())) return null;
  // Reject dates that roll over (2024-02-31 → March): the text must name a real day.
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) return null;
  return parsed.toISOString();
}
