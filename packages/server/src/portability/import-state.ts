import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import type { Database, ImportedKind } from "../db/schema.js";
import type { BoardPlacement } from "./imported-boards.js";
import type { SourcePerson } from "./import-records.js";
import type { StatusTarget } from "./status-columns.js";

/** What an import created, and what it found already there. */
export interface ImportCounts {
  requests: number;
  requestsExisting: number;
  comments: number;
  commentsExisting: number;
  votes: number;
  votesExisting: number;
  /** Votes counted without a voter (a CSV's `votes`, a Canny score above its voter list). */
  importedVotes: number;
  endUsers: number;
  /** Boards and tags the import created (the source's that the app did not have). */
  boards: number;
  tags: number;
}

export interface WriterOptions {
  appId: string;
  /** The format: `csv`, `canny`, `fider`. */
  source: string;
  /** Keep authors' email addresses on requests and comments (otherwise only a hash keys them). */
  keepEmails: boolean;
  resolveStatus(status: string | null): StatusTarget;
  /** Where requests go: `--board` and `--board-map`. */
  boards: BoardPlacement;
  /** `--tag-map`: a source tag's name → the tag it becomes (empty: left off). */
  tagMap: Record<string, string>;
  /** The custom field keys the input has columns for. */
  fieldKeys: readonly string[];
  /** A record that cannot be placed (unknown request, duplicate id): reported by the caller. */
  onIssue(at: string, message: string): void;
  /** Something the operator should know that skips nothing (a board created private). */
  onNote(message: string): void;
}

/** Rows per multi-row statement: well under SQLite's limit of bound parameters. */
export const BATCH = 400;

export interface Known {
  id: string;
  /** Created by this run (its counts are settled at the end). */
  fresh: boolean;
}

/**
 * What the parts of an `ImportWriter` run share: the transaction, the options, the counts
 * and the requests known by source id.
 */
export interface ImportState {
  readonly trx: Kysely<Database>;
  readonly dialect: DialectName;
  readonly clock: Clock;
  readonly options: WriterOptions;
  readonly counts: ImportCounts;
  /** Requests by source id: earlier runs' and this one's. */
  readonly requests: Map<string, Known>;
  /** Requests of boards that cannot be placed: their comments and votes are not reported one by one. */
  readonly unplaced: ReadonlySet<string>;
  /** Requests whose counts are settled at the end. */
  readonly touched: Set<string>;
  /** End-user ids for people, minted when new; keyed by the hash of their email (or source id). */
  endUsers(people: Array<SourcePerson | null>, createdAt: string[]): Promise<Array<string | null>>;
  /** Remembers each pair's source id (table `import_sources`). */
  remember(kind: ImportedKind, pairs: Array<{ sourceId: string; localId: string }>): Promise<void>;
}
