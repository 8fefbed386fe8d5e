import type { ArchiveTable } from "./archive-format.js";

/** A column that points at another archived row, and how strictly. */
export interface Reference {
  column: string;
  table: ArchiveTable;
  /**
   * `row`: an earlier row of the archive (or null when `nullable`); `later`: a row of the same
   * table that may come after it, checked at the table's end; `loose`: an archived row. `later`
   * and `loose` may also name an id that is nowhere on this server: a reply outlives its deleted
   * parent, events and subscriptions outlive a deleted request.
   */
  kind: "row" | "later" | "loose";
  nullable?: boolean;
}

/** Every reference an imported row must keep inside the archive, so an archive reaches no other app. */
export const REFERENCES: Partial<Record<ArchiveTable, readonly Reference[]>> = {
  apps: [{ column: "workspaceId", table: "workspaces", kind: "row" }],
  segments: [{ column: "appId", table: "apps", kind: "row" }],
  boards: [{ column: "appId", table: "apps", kind: "row" }],
  tags: [{ column: "appId", table: "apps", kind: "row" }],
  customFields: [
    { column: "appId", table: "apps", kind: "row" },
    { column: "boardId", table: "boards", kind: "row", nullable: true },
  ],
  boardColumns: [{ column: "appId", table: "apps", kind: "row" }],
  appVersions: [{ column: "appId", table: "apps", kind: "row" }],
  companies: [{ column: "appId", table: "apps", kind: "row" }],
  endUsers: [
    { column: "appId", table: "apps", kind: "row" },
    { column: "companyId", table: "companies", kind: "row", nullable: true },
  ],
  featureRequests: [
    { column: "appId", table: "apps", kind: "row" },
    // Loose: archives written before boards carry none; the import then puts such requests, and
    // any naming a board that is not their app's, on the app's default board (archive-boards.ts).
    { column: "boardId", table: "boards", kind: "loose", nullable: true },
    { column: "columnId", table: "boardColumns", kind: "row", nullable: true },
    { column: "versionId", table: "appVersions", kind: "row", nullable: true },
    { column: "requesterEndUserId", table: "endUsers", kind: "row", nullable: true },
    { column: "mergedIntoId", table: "featureRequests", kind: "later", nullable: true },
  ],
  featureRequestTags: [
    { column: "featureRequestId", table: "featureRequests", kind: "row" },
    { column: "tagId", table: "tags", kind: "row" },
  ],
  featureRequestVotes: [
    { column: "featureRequestId", table: "featureRequests", kind: "row" },
    { column: "endUserId", table: "endUsers", kind: "row" },
    // The linked feedback whose link added the vote (submissions come later in the archive).
    { column: "sourceSubmissionId", table: "submissions", kind: "loose", nullable: true },
  ],
  featureRequestComments: [
    { column: "featureRequestId", table: "featureRequests", kind: "row" },
    { column: "endUserId", table: "endUsers", kind: "row", nullable: true },
    { column: "parentId", table: "featureRequestComments", kind: "later", nullable: true },
  ],
  featureRequestEvents: [
    { column: "appId", table: "apps", kind: "row" },
    { column: "featureRequestId", table: "featureRequests", kind: "loose" },
  ],
  // The pairs the team marked "not a duplicate", so the duplicates queue does not offer them again.
  duplicateDismissals: [
    { column: "firstId", table: "featureRequests", kind: "row" },
    { column: "secondId", table: "featureRequests", kind: "row" },
  ],
  changelogEntries: [
    { column: "appId", table: "apps", kind: "row" },
    { column: "versionId", table: "appVersions", kind: "row", nullable: true },
    { column: "emailSegmentId", table: "segments", kind: "row", nullable: true },
  ],
  changelogEntryRequests: [
    { column: "entryId", table: "changelogEntries", kind: "row" },
    { column: "featureRequestId", table: "featureRequests", kind: "row" },
  ],
  emailSubscriptions: [
    { column: "appId", table: "apps", kind: "row" },
    { column: "featureRequestId", table: "featureRequests", kind: "loose" },
  ],
  submissions: [
    { column: "appId", table: "apps", kind: "row" },
    { column: "workspaceId", table: "workspaces", kind: "row" },
    { column: "endUserId", table: "endUsers", kind: "row", nullable: true },
    // The request the feedback is evidence for (it may have been deleted since).
    { column: "featureRequestId", table: "featureRequests", kind: "loose", nullable: true },
  ],
  uploads: [
    { column: "appId", table: "apps", kind: "row" },
    { column: "submissionId", table: "submissions", kind: "row", nullable: true },
  ],
};

/** The column naming a row's owner: a row already on the server must have the same one. */
export const OWNER_COLUMN: Partial<Record<ArchiveTable, string>> = {
  apps: "workspaceId",
  segments: "appId",
  boards: "appId",
  tags: "appId",
  customFields: "appId",
  boardColumns: "appId",
  appVersions: "appId",
  companies: "appId",
  endUsers: "appId",
  featureRequests: "appId",
  featureRequestComments: "featureRequestId",
  featureRequestEvents: "appId",
  changelogEntries: "appId",
  emailSubscriptions: "appId",
  submissions: "appId",
  uploads: "appId",
};
