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

/** Opens a path as one format; throws `ImportInputError` (import-errors.ts) when it is not that format. */
export type Importer = (path: string, options: ImporterOptions) => Promise<ImportSource>;
