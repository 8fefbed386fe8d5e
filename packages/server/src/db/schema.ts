import type { ApiTokenScope, CustomFieldType } from "@tidings/protocol";
import type { ColumnType, Generated } from "kysely";

/**
 * Row types of every table, in the camelCase the CamelCasePlugin maps to snake_case columns.
 * Booleans are stored as 0/1 integers and timestamps as ISO-8601 UTC text so that the same query
 * returns the same values on SQLite and PostgreSQL.
 */
export type Flag = 0 | 1;

export interface WorkspacesTable {
  id: string;
  name: string;
  slug: string;
  plan: string;
  subscriptionStatus: string;
  monthlySubmissionQuota: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface ConsoleUsersTable {
  id: string;
  email: string;
  displayName: string | null;
  passwordHash: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MembershipsTable {
  id: string;
  workspaceId: string;
  userId: string;
  role: string;
  createdAt: string;
  updatedAt: string;
}

export interface ApiTokensTable {
  id: string;
  userId: string;
  name: string;
  tokenHash: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** `read` or `read-write` (migration 0032; tokens made before it are `read-write`). */
  scope: Generated<ApiTokenScope>;
  /** The one workspace the token reaches, or null for every workspace of its user. */
  workspaceId: string | null;
}

export interface AppsTable {
  id: string;
  workspaceId: string;
  appKey: string;
  name: string;
  slug: string;
  signingSecret: string;
  storeUrl: string | null;
  storeKind: string | null;
  appStoreUrl: string | null;
  googlePlayUrl: string | null;
  websiteUrl: string | null;
  iconUrl: string | null;
  hideSiteBranding: Flag;
  allowedEmbedOrigins: string;
  allowPublic: Flag;
  allowAnonymousRoadmap: Flag;
  allowAnonymousVote: Flag;
  allowAnonymousFeedback: Flag;
  allowAnonymousChangelog: Flag;
  /** Search engines may index the portal (robots meta, sitemap.xml). Defaults to 0 in the column. */
  portalIndexable: Generated<Flag>;
  allowedPlatforms: string;
  maxAttachmentBytes: number;
  moderationPolicy: string;
  sdk: string;
  verificationProvider: string;
  verificationSiteKey: string | null;
  verificationSecret: string | null;
  verificationExempt: Flag;
  /** An identified caller (X-User-Hash or SSO token) counts as verified at intake; defaults to 1 in the column. */
  verificationTrustIdentified: Generated<Flag>;
  /** Writes need a verified identity (SSO token or X-User-Hash); defaults to 0 in the schema. */
  requireIdentifiedUsers: Generated<Flag>;
  createdAt: string;
  updatedAt: string;
}

export interface BoardColumnsTable {
  id: string;
  appId: string;
  name: string;
  slug: string;
  position: number;
  isVisible: Flag;
  isSystem: Flag;
  kind: string;
  color: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AppVersionsTable {
  id: string;
  appId: string;
  label: string;
  position: number;
  released: Flag;
  releasedAt: string | null;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EndUsersTable {
  id: string;
  appId: string;
  tokenHash: string;
  publicId: string;
  createdAt: string;
  lastSeenAt: string;
  isPaying: Flag | null;
  plan: string | null;
  mrrCents: number | null;
  currency: string | null;
  displayName: string | null;
  attributesUpdatedAt: string | null;
  /** Signed in through SSO: the address and avatar the host's latest token carried. */
  email: string | null;
  avatarUrl: string | null;
  /** The company the host last reported the user in (`companies.id`), or null. */
  companyId: string | null;
  /** Epoch seconds of that report (signature timestamp or token `iat`); older reports lose. */
  companyReportedAt: number | null;
}

/** An account end users belong to, as the host app reports it (migration 0031). */
export interface CompaniesTable {
  id: string;
  appId: string;
  /** The host's id for the company, unique in the app. */
  externalId: string;
  name: string | null;
  /** Monthly revenue in hundredths of `currency`, or null when unknown. */
  mrrCents: number | null;
  /** ISO 4217, upper case. */
  currency: string;
  plan: string | null;
  /** JSON object of the further attributes (`{}` when none). */
  attributes: string;
  /** Epoch seconds of the report that last wrote the row; an older report changes nothing. */
  reportedAt: number;
  createdAt: string;
  updatedAt: string;
}

/** Moderation state of a feature request. */
export type Moderation = "pending" | "approved" | "declined";

/** One of an app's lists of requests; exactly one per app is the default. */
export interface BoardsTable {
  id: string;
  appId: string;
  name: string;
  slug: string;
  description: string;
  position: number;
  visibility: "public" | "private";
  /** JSON of a `BoardAccessRule`; null admits every identified user. Private boards only. */
  accessRule: string | null;
  isDefault: Flag;
  createdAt: string;
  updatedAt: string;
}

/** A saved rule over end users' and companies' reported attributes (migration 0037). */
export interface SegmentsTable {
  id: string;
  appId: string;
  name: string;
  /** JSON of a `SegmentRule`. */
  rule: string;
  createdAt: string;
  updatedAt: string;
}

/** A label the team puts on requests; team-only tags never reach the public. */
export interface TagsTable {
  id: string;
  appId: string;
  name: string;
  slug: string;
  color: string | null;
  visibility: "public" | "team";
  createdAt: string;
  updatedAt: string;
}

/** A field the team asks for on the proposal or feedback form; archived rather than deleted. */
export interface CustomFieldsTable {
  id: string;
  appId: string;
  /** The one board whose proposals ask for it, or null for every board (and feedback). */
  boardId: string | null;
  /** Unique among the app's active fields; never changes. */
  key: string;
  label: string;
  description: string;
  type: CustomFieldType;
  required: Flag;
  /** JSON array of the forms that ask for it (`feature_request`, `feedback`). */
  appliesTo: string;
  /** JSON array of `{value, label}` (selects; `[]` otherwise). */
  options: string;
  /** JSON object of the `CustomFieldLimits` that apply to its type. */
  limits: string;
  /** Order among the app's active fields. */
  position: number;
  archived: Flag;
  createdAt: string;
  updatedAt: string;
}

export interface FeatureRequestTagsTable {
  featureRequestId: string;
  tagId: string;
  createdAt: string;
  /**
   * Copies of what the listing needs of the request, kept by triggers (migration 0030) so a tag's
   * requests are read newest first from the tag's rows: 1 when the request is listed (approved,
   * not merged), and its creation time. Never written by the application.
   */
  listed: Generated<Flag>;
  requestCreatedAt: Generated<string>;
  /** The request's vote count (triggers of migration 0038): a tag's `top` page is read in order from its rows too. */
  requestVoteCount: Generated<number>;
}

export interface FeatureRequestsTable {
  id: string;
  appId: string;
  title: string;
  description: string;
  /** The board it belongs to (always one of its app's boards). */
  boardId: string;
  columnId: string | null;
  versionId: string | null;
  moderation: Moderation;
  approvedAt: string | null;
  mergedIntoId: string | null;
  requesterEndUserId: string | null;
  requesterName: string | null;
  requesterEmail: string | null;
  createdByAdmin: Flag;
  /** Stored votes plus imported ones; kept equal to them in the same transaction as every vote. */
  voteCount: number;
  importedVotes: number;
  /** Visible (not hidden) comments. */
  commentCount: number;
  /**
   * Up to four distinct authors of its 20 latest visible comments, newest first, as a JSON array
   * of `{authorName, clerkUserId, avatarUrl}`; null without a visible comment. Written by the
   * triggers of migration 0052 on every change to its comments, never by the application.
   */
  recentCommenters: ColumnType<string | null, never, never>;
  /** Lower-cased, accent-stripped copies that the full-text index reads. */
  searchTitle: string;
  searchBody: string;
  searchExtra: string;
  /** JSON object of custom field values keyed by field id; `{}` when none. */
  customFields: string;
  createdAt: string;
  updatedAt: string;
}

/** A pair of requests the team marked "not a duplicate"; stored once, the smaller id first. */
export interface DuplicateDismissalsTable {
  firstId: string;
  secondId: string;
  /** `user:<id>` or `admin`, as in the event log. */
  dismissedBy: string;
  createdAt: string;
}

/**
 * Votes with a `shipNotifyEmail` that the ship-notification step has not handled yet, queued by a
 * trigger as they are inserted (migration 0044); the step removes each row once handled.
 */
export interface ShipNotifyQueueTable {
  featureRequestId: string;
  endUserId: string;
}

/**
 * Requests whose confirmed ship subscribers may be due a "shipped" mail, queued by triggers when
 * the request ships, is linked in a published release, or gets a confirmed ship subscriber
 * (migration 0045); the ship-notification step removes each once handled.
 */
export interface ShipDueQueueTable {
  featureRequestId: string;
}

/**
 * A request's place in the `top` order, copied from it by triggers (migration 0046): the listings
 * read that order from this table's indexes, so no index of `feature_requests` holds its vote count.
 */
export interface FeatureRequestTopTable {
  id: string;
  appId: string;
  boardId: string;
  /** 1 when the request is listed (approved, not merged), else 0. */
  listed: number;
  voteCount: number;
  createdAt: string;
}

/** One vote, identified by its request and its voter (the primary key). */
export interface FeatureRequestVotesTable {
  featureRequestId: string;
  endUserId: string;
  shipNotifyEmail: string | null;
  createdAt: string;
  /** The console user who added the vote on the voter's behalf, or null (migration 0034). */
  addedBy: string | null;
  /** The team's note on a vote added on behalf. */
  note: string | null;
  /** The linked feedback whose link added the vote; unlinking removes it. */
  sourceSubmissionId: string | null;
}

export interface FeatureRequestCommentsTable {
  id: string;
  featureRequestId: string;
  endUserId: string | null;
  teamUserId: string | null;
  authorName: string | null;
  authorEmail: string | null;
  body: string;
  parentId: string | null;
  replyToAuthorName: string | null;
  isTeam: Flag;
  isHidden: Flag;
  createdAt: string;
  updatedAt: string;
}

export interface FeatureRequestEventsTable {
  id: string;
  featureRequestId: string;
  appId: string;
  /** created, approved, declined, moved, version_changed, board_changed, merged, shipped, edited, deleted */
  type: string;
  /** JSON object with the event's details (from/to column, merge target, …). */
  data: string;
  /** `user:<id>`, `admin`, `end_user:<id>` or null for the system. */
  actor: string | null;
  createdAt: string;
}

export interface VerificationTokensUsedTable {
  tokenHash: string;
  appId: string;
  expiresAt: string;
}

export interface WorkspaceUsageTable {
  workspaceId: string;
  /** UTC calendar month, `YYYY-MM`. */
  month: string;
  submissions: number;
}

/** More of a month's submissions, counted in several rows per workspace (migration 0043). */
export interface WorkspaceUsageSpreadTable {
  workspaceId: string;
  /** UTC calendar month, `YYYY-MM`. */
  month: string;
  shard: number;
  submissions: number;
}

/** Instance-wide settings, such as the secret that signs download links. */
export interface ServerSettingsTable {
  key: string;
  value: string;
  createdAt: string;
}

/** Triage state of a feedback submission in the console inbox. */
export type TriageStatus = "open" | "in_progress" | "resolved" | "archived";

export interface SubmissionsTable {
  id: string;
  appId: string;
  workspaceId: string;
  endUserId: string | null;
  title: string;
  description: string;
  reporterName: string | null;
  reporterEmail: string | null;
  platform: string;
  appVersion: string | null;
  buildNumber: string | null;
  /** Sanitised metadata, a JSON object. */
  metadata: string;
  /** Lower-cased title, description and reporter for the inbox's text filter. */
  searchText: string;
  triageStatus: TriageStatus;
  /** `!`, `!!`, `!!!` or null. */
  priority: string | null;
  /** Console user id of the assignee. */
  assignedTo: string | null;
  internalNote: string | null;
  firstTriagedAt: string | null;
  resolvedAt: string | null;
  /** JSON object of custom field values keyed by field id; `{}` when none. */
  customFields: string;
  createdAt: string;
  updatedAt: string;
  /** The feature request it is evidence for, and since when (migration 0034). */
  featureRequestId: string | null;
  linkedAt: string | null;
}

export interface UploadSessionsTable {
  id: string;
  appId: string;
  /** SHA-256 of the session token (`cpt_up_…`). */
  tokenHash: string;
  /** SHA-256 of the uploader's X-User-Token, when one was sent. */
  uploaderTokenHash: string | null;
  purpose: string;
  expiresAt: string;
  createdAt: string;
}

/** `pending`: a session slot waiting for its bytes; `uploaded`: stored. */
export type UploadStatus = "pending" | "uploaded";

export interface UploadsTable {
  id: string;
  appId: string;
  sessionId: string | null;
  /** Set once the upload is attached to a feedback submission; unattached uploads are swept after 24 h. */
  submissionId: string | null;
  /** `image` or `object`. */
  kind: string;
  status: UploadStatus;
  storageKey: string;
  clientFileId: string | null;
  filename: string;
  mimeType: string;
  maxBytes: number;
  size: number | null;
  sha256: string | null;
  uploaderTokenHash: string | null;
  createdAt: string;
  uploadedAt: string | null;
  attachedAt: string | null;
}

/** A release note's lifecycle: `draft`, `scheduled` (published by the job runner at `scheduledAt`) or `published`. */
export type ChangelogStatus = "draft" | "scheduled" | "published";

export interface ChangelogEntriesTable {
  id: string;
  appId: string;
  title: string;
  /** Markdown. */
  body: string;
  versionLabel: string | null;
  versionId: string | null;
  status: ChangelogStatus;
  scheduledAt: string | null;
  publishedAt: string | null;
  /** When the subscriber mails of the (first) publication were queued. */
  notifiedAt: string | null;
  /** Only this segment's subscribers are mailed the release (migration 0037); null: every one. */
  emailSegmentId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ChangelogEntryRequestsTable {
  entryId: string;
  featureRequestId: string;
  position: number;
}

/** `changelog` (featureRequestId `""`), `ship` (one request) or `request` (every update of one request). */
export type SubscriptionKind = "changelog" | "ship" | "request";
export type SubscriptionStatus = "pending" | "confirmed" | "unsubscribed";

export interface EmailSubscriptionsTable {
  id: string;
  appId: string;
  kind: SubscriptionKind;
  featureRequestId: string;
  /** Lower-cased address. */
  email: string;
  status: SubscriptionStatus;
  subscriberTokenHash: string | null;
  confirmNonce: string | null;
  confirmSentAt: string | null;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  /** Ship notifications: when the shipped mail was queued (once). */
  notifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a followed request's notice tells. */
export type RequestNoticeKind = "moved" | "replied" | "shipped";

/** One update of a followed request waiting for its follower's hourly digest. */
export interface RequestUpdateNoticesTable {
  id: string;
  appId: string;
  subscriptionId: string;
  email: string;
  featureRequestId: string;
  kind: RequestNoticeKind;
  /** JSON: the column moved to, the reply's excerpt, the release. */
  data: string;
  dedupeKey: string;
  createdAt: string;
  sentAt: string | null;
}

/** What an address wants to hear about the requests it follows in one app (absent: everything). */
export interface NotificationPreferencesTable {
  appId: string;
  email: string;
  moves: Flag;
  replies: Flag;
  ships: Flag;
  updatedAt: string;
}

export type JobStatus = "pending" | "running" | "done" | "failed";

export interface JobsTable {
  id: string;
  kind: string;
  refId: string | null;
  dedupeKey: string;
  /** JSON. */
  payload: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: string;
  lockedUntil: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** SQLite only: the FTS5 index of feature requests (words prefixed, see `indexPrefix`). */
export interface FeatureRequestsFtsTable {
  featureRequestId: string;
  title: string;
  body: string;
  extra: string;
}

/**
 * PostgreSQL only: every word prefix (one to eight letters) of each public request's search texts,
 * kept by triggers on `feature_requests` (migration 0024).
 */
export interface FeatureRequestSearchTable {
  featureRequestId: string;
  prefixes: string[];
}

/**
 * PostgreSQL only: one row per public request and distinct word of its title (cut to eight
 * letters), with all those words (`words`, each after a space), kept by triggers on
 * `feature_requests` (migration 0041) for the similar-requests lookups.
 */
export interface FeatureRequestTitleWordsTable {
  appId: string;
  word: string;
  featureRequestId: string;
  words: string;
}

/** A signed-in browser: only the SHA-256 of the session cookie is stored. */
export interface ConsoleSessionsTable {
  id: string;
  tokenHash: string;
  userId: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  revokedAt: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** An invitation link to join a workspace (SHA-256 of its token). */
export interface ConsoleInvitationsTable {
  id: string;
  workspaceId: string;
  email: string;
  role: string;
  tokenHash: string;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
}

/** Consecutive failed sign-ins per normalised email, and the lockout they caused. */
export interface ConsoleLoginFailuresTable {
  email: string;
  failures: number;
  firstFailedAt: string;
  lockedUntil: string | null;
}

/**
 * `pending`: reserved, nothing written yet; `written`: the request's write committed, its answer
 * not yet kept; `done`: the answer is kept for replay.
 */
export type IdempotencyState = "pending" | "written" | "done";

/** The `Idempotency-Key` of a public POST, per caller scope (see `http/idempotency.ts`). */
export interface IdempotencyKeysTable {
  /** SHA-256 of method, route, path parameters, app key and caller credentials. */
  scopeHash: string;
  /** SHA-256 of the key as sent. */
  keyHash: string;
  /** SHA-256 of the canonical request (query and body, or an upload's fields and file digest). */
  fingerprint: string;
  state: IdempotencyState;
  /** Random id of the request holding the reservation: only it may mark, answer or release it. */
  attempt: string;
  /** When the current attempt took the reservation; a `pending` one older than the lease is abandoned. */
  lockedAt: string;
  statusCode: number | null;
  /** JSON object of the answer headers replayed (content-type, location, cache-control). */
  responseHeaders: string | null;
  /** The answer body, AES-256-GCM sealed with a key derived from the raw key (base64url). */
  responseBody: string | null;
  createdAt: string;
  expiresAt: string;
}

/** Kinds of imported rows remembered by their source id. */
export type ImportedKind = "request" | "comment";

/** An imported request or comment and where it came from, so a re-run skips it. */
export interface ImportSourcesTable {
  appId: string;
  /** The format it was imported from: `csv`, `canny`, `fider`, … */
  source: string;
  kind: ImportedKind;
  /** Its id in the source product (or a CSV row's `id`). */
  sourceId: string;
  /** The feature request's or comment's id here. */
  localId: string;
  createdAt: string;
}

/** An outbound webhook endpoint of an app. */
export interface WebhookEndpointsTable {
  id: string;
  appId: string;
  url: string;
  format: string;
  /** JSON array of event types. */
  events: string;
  enabled: Flag;
  description: string;
  secret: string;
  consecutiveFailures: number;
  disabledReason: string | null;
  disabledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The issue trackers an app can connect. */
export type TrackerProvider = "github" | "linear";

/** An app's connection to an issue tracker (one per app and tracker). */
export interface TrackerConnectionsTable {
  id: string;
  provider: TrackerProvider;
  appId: string;
  /** What the connection reaches: GitHub `owner/repo`, or the Linear team id. */
  target: string;
  /** The token or API key; null for a GitHub App installation. */
  credential: string | null;
  /** The credential's last four characters, to tell them apart. */
  credentialHint: string | null;
  githubAppId: string | null;
  /** The GitHub App's private key (PEM). */
  githubPrivateKey: string | null;
  githubInstallationId: string | null;
  webhookSecret: string;
  apiUrl: string;
  /** JSON: which column each tracker event moves a request to (the tracker's own shape). */
  mapping: string;
  status: "active" | "broken";
  brokenReason: string | null;
  brokenAt: string | null;
  pausedUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A request linked to an issue of its app's connected tracker (one per request and tracker). */
export interface TrackerIssueLinksTable {
  id: string;
  provider: TrackerProvider;
  connectionId: string;
  appId: string;
  featureRequestId: string;
  /** The tracker's id of the issue: GitHub's number (as text), Linear's UUID. */
  issueId: string;
  /** How people name the issue: `#42`, `ENG-123`. */
  issueKey: string;
  issueUrl: string;
  issueTitle: string;
  issueState: string | null;
  pushedVotes: number | null;
  pushedComments: number | null;
  pushedAt: string | null;
  syncError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A tracker's webhook delivery already received (its delivery id). */
export interface TrackerWebhookDeliveriesTable {
  connectionId: string;
  deliveryId: string;
  event: string;
  receivedAt: string;
}

/** One event for one endpoint. */
export interface WebhookDeliveriesTable {
  id: string;
  endpointId: string;
  appId: string;
  eventId: string;
  eventType: string;
  /** JSON: the event as recorded in the write's transaction. */
  event: string;
  status: "pending" | "delivered" | "failed" | "cancelled";
  attemptCount: number;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One HTTP attempt of a delivery. */
export interface WebhookAttemptsTable {
  id: string;
  deliveryId: string;
  attempt: number;
  at: string;
  outcome: "success" | "http_error" | "network_error" | "timeout" | "refused";
  statusCode: number | null;
  latencyMs: number;
  excerpt: string;
}

/** The whole database as Kysely sees it. */
export interface Database {
  workspaces: WorkspacesTable;
  consoleUsers: ConsoleUsersTable;
  memberships: MembershipsTable;
  apiTokens: ApiTokensTable;
  consoleSessions: ConsoleSessionsTable;
  consoleInvitations: ConsoleInvitationsTable;
  consoleLoginFailures: ConsoleLoginFailuresTable;
  apps: AppsTable;
  boardColumns: BoardColumnsTable;
  boards: BoardsTable;
  tags: TagsTable;
  segments: SegmentsTable;
  featureRequestTags: FeatureRequestTagsTable;
  customFields: CustomFieldsTable;
  appVersions: AppVersionsTable;
  endUsers: EndUsersTable;
  companies: CompaniesTable;
  featureRequests: FeatureRequestsTable;
  featureRequestVotes: FeatureRequestVotesTable;
  shipNotifyQueue: ShipNotifyQueueTable;
  shipDueQueue: ShipDueQueueTable;
  featureRequestTop: FeatureRequestTopTable;
  featureRequestComments: FeatureRequestCommentsTable;
  featureRequestEvents: FeatureRequestEventsTable;
  duplicateDismissals: DuplicateDismissalsTable;
  verificationTokensUsed: VerificationTokensUsedTable;
  workspaceUsage: WorkspaceUsageTable;
  workspaceUsageSpread: WorkspaceUsageSpreadTable;
  featureRequestsFts: FeatureRequestsFtsTable;
  featureRequestSearch: FeatureRequestSearchTable;
  featureRequestTitleWords: FeatureRequestTitleWordsTable;
  serverSettings: ServerSettingsTable;
  submissions: SubmissionsTable;
  uploadSessions: UploadSessionsTable;
  uploads: UploadsTable;
  changelogEntries: ChangelogEntriesTable;
  changelogEntryRequests: ChangelogEntryRequestsTable;
  emailSubscriptions: EmailSubscriptionsTable;
  requestUpdateNotices: RequestUpdateNoticesTable;
  notificationPreferences: NotificationPreferencesTable;
  jobs: JobsTable;
  idempotencyKeys: IdempotencyKeysTable;
  importSources: ImportSourcesTable;
  webhookEndpoints: WebhookEndpointsTable;
  webhookDeliveries: WebhookDeliveriesTable;
  webhookAttempts: WebhookAttemptsTable;
  trackerConnections: TrackerConnectionsTable;
  trackerIssueLinks: TrackerIssueLinksTable;
  trackerWebhookDeliveries: TrackerWebhookDeliveriesTable;
}
