import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

/** The archive format version written in the header line; an importer refuses newer ones. */
export const ARCHIVE_VERSION = 1;

/** The first line of every archive. */
export interface ArchiveHeader {
  type: "tidings-archive";
  version: number;
  exportedAt: string;
  scope: { kind: "app"; appKey: string } | { kind: "workspace"; slug: string };
}

/** A row of one table, keyed by its camelCase column names. */
export type ArchiveRow = Record<string, unknown>;

/** One line of the archive after the header. */
export type ArchiveLine =
  | { type: "row"; table: ArchiveTable; row: ArchiveRow }
  | { type: "file"; uploadId: string; part: number; data: string; last: boolean }
  | { type: "end"; counts: Record<string, number> };

/** The tables an archive carries, in an order where every row comes after the rows it references. */
export const ARCHIVE_TABLES = [
  "workspaces",
  "apps",
  "segments",
  "boards",
  "tags",
  "customFields",
  "boardColumns",
  "appVersions",
  "companies",
  "endUsers",
  "featureRequests",
  "featureRequestTags",
  "featureRequestVotes",
  "featureRequestComments",
  "featureRequestEvents",
  "duplicateDismissals",
  "changelogEntries",
  "changelogEntryRequests",
  "emailSubscriptions",
  "submissions",
  "uploads",
] as const satisfies readonly (keyof Database)[];

export type ArchiveTable = (typeof ARCHIVE_TABLES)[number];

/** The columns that make a row unique (keyset pagination on export, conflict target on import). */
export const TABLE_KEYS: Record<ArchiveTable, readonly string[]> = {
  workspaces: ["id"],
  apps: ["id"],
  segments: ["id"],
  boards: ["id"],
  tags: ["id"],
  customFields: ["id"],
  boardColumns: ["id"],
  appVersions: ["id"],
  companies: ["id"],
  endUsers: ["id"],
  featureRequests: ["id"],
  featureRequestTags: ["featureRequestId", "tagId"],
  featureRequestVotes: ["featureRequestId", "endUserId"],
  featureRequestComments: ["id"],
  featureRequestEvents: ["id"],
  duplicateDismissals: ["firstId", "secondId"],
  changelogEntries: ["id"],
  changelogEntryRequests: ["entryId", "featureRequestId"],
  emailSubscriptions: ["id"],
  submissions: ["id"],
  uploads: ["id"],
};

/**
 * Columns left out of the archive: secrets (an archive is a file people mail around; the import
 * issues a new signing secret and the verification secret is entered again) and copies the
 * importer or the database derive again (search text, a tag row's copy of its request's state, time and votes).
 */
export const OMITTED_COLUMNS: Partial<Record<ArchiveTable, readonly string[]>> = {
  apps: ["signingSecret", "verificationSecret"],
  // Search copies of the text, and the recent commenters the database keeps from the comments (migration 0052).
  featureRequests: ["searchTitle", "searchBody", "searchExtra", "recentCommenters"],
  // The tag rows' copies of their request's state, time and votes, which the database keeps (migrations 0030, 0038).
  featureRequestTags: ["listed", "requestCreatedAt", "requestVoteCount"],
  submissions: ["searchText"],
  uploads: ["sessionId"],
};

/** Raw bytes per `file` line (base64 makes a line about 4/3 of it). */
export const FILE_PART_BYTES = 192 * 1024;

/**
 * Kysely over the archived tables with their names as plain strings, for code that walks every
 * table the same way. The CamelCasePlugin still maps the names.
 */
export type LooseDb = Kysely<Record<string, Record<string, unknown>>>;

/** The same handle, typed for table-generic code. */
export function loose(db: Kysely<Database>): LooseDb {
  return db as unknown as LooseDb;
}
