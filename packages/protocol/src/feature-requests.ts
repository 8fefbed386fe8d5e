import Type, { type Static } from "typebox";
import { MAX_LIST_OFFSET, MAX_SAFE_INTEGER, PageOffset, StringEnum, Timestamp } from "./common.js";
import { RequestCompanySchema, RevenueByCurrencySchema } from "./companies.js";
import { CustomFieldValuesBodySchema, RecordFieldSchema } from "./custom-fields.js";
import { PublicTagSchema, TagVisibilitySchema } from "./tags.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** Sort orders of the public listing. */
export const FEATURE_REQUEST_SORTS = ["newest", "top", "trending"] as const;
export type FeatureRequestSort = (typeof FEATURE_REQUEST_SORTS)[number];

/** A feature request as the public listing shows it (wire-contract §7.4). */
export const FeatureRequestItemSchema = Type.Object({
  id: Type.String(),
  appId: Type.String(),
  title: Type.String(),
  description: Type.String(),
  /** The column's slug (display only; group by the column fields). */
  status: Type.String(),
  approved: Type.Boolean(),
  voteCount: Type.Integer(),
  importedVotes: Type.Integer(),
  commentCount: Type.Integer(),
  hasVoted: Type.Boolean(),
  isOwnRequest: Type.Boolean(),
  columnId: NullableString,
  columnSlug: NullableString,
  columnName: NullableString,
  columnColor: NullableString,
  versionId: NullableString,
  versionLabel: NullableString,
  /** The version's label once that version is released, else null. */
  releasedVersion: NullableString,
  requesterName: NullableString,
  requesterAvatarUrl: NullableString,
  /** The requester's public id (`u_…`), never their token. */
  requesterClerkId: NullableString,
  recentCommenters: Type.Array(
    Type.Object({ authorName: NullableString, clerkUserId: NullableString, avatarUrl: NullableString }),
  ),
  hasMoreCommenters: Type.Boolean(),
  /** The board it is on. */
  boardId: Type.String(),
  /** Its public tags, by name (team-only tags never appear here). */
  tags: Type.Array(PublicTagSchema),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type FeatureRequestItem = Static<typeof FeatureRequestItemSchema>;

export const FeatureRequestListQuerySchema = Type.Object({
  appKey: Type.Optional(Type.String({ maxLength: 128 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(PageOffset(MAX_SAFE_INTEGER, { description: "Clamped at 10 000" })),
  cursor: Type.Optional(Type.String({ maxLength: 1000 })),
  versionId: Type.Optional(Type.String({ maxLength: 64 })),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  sort: Type.Optional(StringEnum(FEATURE_REQUEST_SORTS)),
  /** A board's slug: only its requests (absent: every board the caller may see). */
  board: Type.Optional(Type.String({ maxLength: 64 })),
  /** A public tag's slug; repeat it to require several (every one must be on the request, up to 5). */
  tag: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 5 })])),
  /** Deprecated: send the X-User-Token header instead. */
  userToken: Type.Optional(Type.String({ maxLength: 256 })),
});

export const FeatureRequestListSchema = Type.Object({
  requests: Type.Array(FeatureRequestItemSchema),
  total: Type.Integer(),
  hasMore: Type.Boolean(),
  nextCursor: NullableString,
});

/** `GET /api/v1/feature-requests/{id}` query: the app key, optional, must match the request's app when given. */
export const FeatureRequestItemQuerySchema = Type.Object({
  appKey: Type.Optional(Type.String({ maxLength: 128 })),
});

/** `GET /api/v1/feature-requests/similar`: requests like a title being typed. */
export const SimilarFeatureRequestsQuerySchema = Type.Object({
  appKey: Type.Optional(Type.String({ maxLength: 128 })),
  title: Type.String({ maxLength: 400 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
});
export const SimilarFeatureRequestsSchema = Type.Object({
  /** Most similar first: requests holding every word typed or, when none does, most of them. */
  requests: Type.Array(FeatureRequestItemSchema),
});

/** `POST /api/v1/feature-requests` body: the SDKs' names and the spec's are both accepted. */
export const ProposeFeatureRequestBodySchema = Type.Object({
  appKey: Type.String({ minLength: 1, maxLength: 128 }),
  title: Type.String({ minLength: 1, maxLength: 400 }),
  description: Type.Optional(Type.String({ maxLength: 20_000 })),
  details: Type.Optional(Type.String({ maxLength: 20_000 })),
  requesterName: Type.Optional(Type.String({ maxLength: 100 })),
  requesterEmail: Type.Optional(Type.String({ maxLength: 254 })),
  requesterToken: Type.Optional(Type.String({ maxLength: 256 })),
  verificationToken: Type.Optional(Type.String({ maxLength: 4096 })),
  turnstileToken: Type.Optional(Type.String({ maxLength: 4096 })),
  /** The slug of the board it goes on (absent: the app's default board). */
  board: Type.Optional(Type.String({ maxLength: 64 })),
  /** Values of the app's custom fields for proposals, by key. */
  fields: Type.Optional(CustomFieldValuesBodySchema),
});
export const ProposeFeatureRequestResultSchema = Type.Object({
  featureRequestId: Type.String(),
  pending: Type.Boolean(),
});

export const VoteBodySchema = Type.Object({
  appKey: Type.Optional(Type.String({ maxLength: 128 })),
  userToken: Type.Optional(Type.String({ maxLength: 256 })),
  shipNotifyEmail: Type.Optional(Type.String({ format: "email", maxLength: 254 })),
});
export const VoteResultSchema = Type.Object({ voted: Type.Boolean(), voteCount: Type.Integer() });

/** Follow a request's updates; `email` is needed unless the caller signed in through SSO with one. */
export const FollowRequestBodySchema = Type.Object({ email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })) });
/** `pending`: a confirmation mail was sent (or is on its way) to an address nobody vouched for. */
export const FollowRequestResultSchema = Type.Object({ following: Type.Boolean(), pending: Type.Boolean() });
export type FollowRequestResult = Static<typeof FollowRequestResultSchema>;

/** A comment or reply (wire-contract §7.5). */
export const CommentSchema = Type.Object({
  id: Type.String(),
  featureRequestId: Type.String(),
  authorName: NullableString,
  authorAvatarUrl: NullableString,
  /** The author's public id (`u_…`), or null for team replies. */
  authorClerkId: NullableString,
  body: Type.String(),
  parentId: NullableString,
  replyToClerkId: NullableString,
  replyToAuthorName: NullableString,
  isTeam: Type.Boolean(),
  isHidden: Type.Boolean(),
  createdAt: Timestamp,
});
export type Comment = Static<typeof CommentSchema>;

export const CommentListQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  cursor: Type.Optional(Type.String({ maxLength: 1000 })),
});
export const CommentListSchema = Type.Object({
  comments: Type.Array(CommentSchema),
  total: Type.Integer(),
  hasMore: Type.Boolean(),
  nextCursor: NullableString,
});

export const PostCommentBodySchema = Type.Object({
  body: Type.String({ minLength: 1, maxLength: 5000 }),
  authorName: Type.Optional(Type.String({ maxLength: 100 })),
  authorEmail: Type.Optional(Type.String({ maxLength: 254 })),
  authorAvatarUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  parentId: Type.Optional(Type.String({ maxLength: 64 })),
  replyToClerkId: Type.Optional(Type.String({ maxLength: 64 })),
  replyToAuthorName: Type.Optional(Type.String({ maxLength: 100 })),
});

// ---------------------------------------------------------------------------------------------
// Console triage (wire-contract §7.4 admin record, §11.4 feature-request endpoints)

export const MODERATION_STATES = ["pending", "approved", "declined"] as const;
/** Where a request stands in moderation; only approved ones are public. */
export type ModerationState = (typeof MODERATION_STATES)[number];
export const ModerationStateSchema = StringEnum(MODERATION_STATES);

/** Sort orders of the console list; ties fall back to newest first. */
export const ADMIN_FEATURE_REQUEST_SORTS = ["newest", "votes", "revenue", "paying_voters", "company_revenue", "company_count"] as const;
export type AdminFeatureRequestSort = (typeof ADMIN_FEATURE_REQUEST_SORTS)[number];

/**
 * A feature request as the console sees it: every public field (`hasVoted` and `isOwnRequest`
 * are always false here) plus moderation and payment facts. `revenueTotal` is the sum of the
 * paying voters' monthly revenue in currency units, whatever their currencies (kept for older
 * dashboards); `companyRevenue` counts each voting company once and each paying voter without a
 * company alone, per currency.
 */
export const AdminFeatureRequestSchema = Type.Object({
  ...FeatureRequestItemSchema.properties,
  moderation: ModerationStateSchema,
  requesterEmail: NullableString,
  approvedAt: Type.Union([Timestamp, Type.Null()]),
  createdByAdmin: Type.Boolean(),
  /** The request this one was merged into; merged duplicates are hidden from the public. */
  mergedIntoId: NullableString,
  revenueTotal: Type.Number(),
  payingVoters: Type.Integer(),
  submitterIsPaying: Type.Boolean(),
  /** Companies among its voters. */
  companyCount: Type.Integer(),
  /** Its voters' revenue per currency: each company once, each paying voter without one alone. */
  companyRevenue: RevenueByCurrencySchema,
  /** Every tag it carries, team-only ones included, by name. */
  tags: Type.Array(Type.Object({ id: Type.String(), ...PublicTagSchema.properties, visibility: TagVisibilitySchema })),
  /** Its custom field values, in the fields' order (archived fields last). */
  fields: Type.Array(RecordFieldSchema),
});
export type AdminFeatureRequest = Static<typeof AdminFeatureRequestSchema>;

export const AdminFeatureRequestListQuerySchema = Type.Object({
  appId: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(PageOffset(MAX_LIST_OFFSET)),
  /** Case- and accent-insensitive substring of the title or description. */
  q: Type.Optional(Type.String({ maxLength: 200 })),
  columnId: Type.Optional(Type.String({ maxLength: 64 })),
  versionId: Type.Optional(Type.String({ maxLength: 64 })),
  /** Requests on this board. */
  boardId: Type.Optional(Type.String({ maxLength: 64 })),
  /** Requests carrying this tag (repeat the parameter: every tag given must match). */
  tagId: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 5 })])),
  moderation: Type.Optional(ModerationStateSchema),
  sort: Type.Optional(StringEnum(ADMIN_FEATURE_REQUEST_SORTS)),
  /** `only`: requests with at least one paying voter or a paying submitter. */
  payer: Type.Optional(StringEnum(["only"] as const)),
  /** The currency `sort=company_revenue` and `minCompanyRevenue` count in (ISO 4217). @default "USD" */
  currency: Type.Optional(Type.String({ pattern: "^[A-Za-z]{3}$" })),
  /** Requests whose company revenue in `currency` is at least this many currency units. */
  minCompanyRevenue: Type.Optional(Type.Number({ minimum: 0, maximum: 1e12 })),
  /** Requests with at least this many voting companies. */
  minCompanies: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  /** Requests with a voter on this plan: their company's, or their own when they have none. */
  plan: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** Requests a user of this company (`co_…`) voted for. */
  companyId: Type.Optional(Type.String({ maxLength: 64 })),
  /** Requests at least one member of this segment (`seg_…`) voted for. */
  segmentId: Type.Optional(Type.String({ maxLength: 64 })),
  includeMerged: Type.Optional(Type.Boolean()),
});

export const AdminFeatureRequestListSchema = Type.Object({
  requests: Type.Array(AdminFeatureRequestSchema),
  /** Requests matching every filter. */
  total: Type.Integer(),
  /** Requests waiting for moderation in the same app scope, whatever the other filters. */
  pendingTotal: Type.Integer(),
});

/** One entry of a request's history. */
export const FeatureRequestEventSchema = Type.Object({
  id: Type.String(),
  /** created, approved, declined, moved, version_changed, board_changed, merged, shipped, edited, deleted */
  type: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
  /** `user:<id>`, `admin`, `end_user:<publicId>` or null for the system. */
  actor: NullableString,
  createdAt: Timestamp,
});
export type FeatureRequestEvent = Static<typeof FeatureRequestEventSchema>;

/** A voter as the console sees them: the public id and the attributes the host app reported. */
export const FeatureRequestVoterSchema = Type.Object({
  publicId: Type.String(),
  /** The name and avatar of a voter signed in through SSO (from their latest token), else null. */
  displayName: NullableString,
  avatarUrl: NullableString,
  isPaying: Type.Boolean(),
  plan: NullableString,
  /** Monthly revenue in currency units, or null when unknown. */
  mrr: Type.Union([Type.Number(), Type.Null()]),
  currency: NullableString,
  /** The company the host reported the voter in. */
  company: Type.Union([Type.Object({ id: Type.String(), externalId: Type.String(), name: NullableString }), Type.Null()]),
  votedAt: Timestamp,
  /** Added by the team on the voter's behalf (`addedBy` is the console user), with its `note`. */
  addedByTeam: Type.Boolean(),
  addedBy: NullableString,
  note: NullableString,
  /** The linked feedback whose link added the vote, or null. */
  fromSubmissionId: NullableString,
});
export type FeatureRequestVoter = Static<typeof FeatureRequestVoterSchema>;

/** A feedback submission linked to a request, as its console record lists it. */
export const LinkedFeedbackSchema = Type.Object({
  submissionId: Type.String(),
  title: Type.String(),
  /** The description's first 280 characters (`…` when cut), or the title when it has none. */
  quote: Type.String(),
  reporterName: NullableString,
  reporterEmail: NullableString,
  /** The identified reporter, counted as a voter; null for anonymous feedback. */
  voterPublicId: NullableString,
  linkedAt: Timestamp,
  createdAt: Timestamp,
});
export type LinkedFeedback = Static<typeof LinkedFeedbackSchema>;

/** `POST W/feature-requests/:id/votes`: a vote on a customer's behalf; name exactly one of the three. */
export const VoteOnBehalfBodySchema = Type.Object({
  /** An end user of the request's app, by public id. */
  endUserId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** An end user of the request's app, by the email their SSO token carried (case-insensitive). */
  email: Type.Optional(Type.String({ minLength: 3, maxLength: 320 })),
  /** A company of the request's app (`co_…`): the vote is its first user's (earliest known). */
  companyId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  note: Type.Optional(Type.String({ maxLength: 2_000 })),
});

export const VoteOnBehalfResultSchema = Type.Object({
  /** The public id of the end user who now votes. */
  voterPublicId: Type.String(),
  /** False when they voted already (nothing changed). */
  added: Type.Boolean(),
  voteCount: Type.Integer(),
  /**
   * The customer's follow of the request: `confirmed` (the address their SSO token carried),
   * `pending` (a confirmation mail went to the address they typed on their feedback),
   * `declined` (they had stopped following it: left so), `none` (no address known).
   */
  follow: StringEnum(["confirmed", "pending", "declined", "none"]),
});
export type VoteOnBehalfResult = Static<typeof VoteOnBehalfResultSchema>;

export const AdminFeatureRequestDetailSchema = Type.Object({
  ...AdminFeatureRequestSchema.properties,
  /** Newest first. */
  events: Type.Array(FeatureRequestEventSchema),
  /** The 500 most recent voters, newest first (`voteCount` has the total). */
  voters: Type.Array(FeatureRequestVoterSchema),
  /** Its voters' companies, highest MRR first (500 at most; `companyCount` has the total). */
  companies: Type.Array(RequestCompanySchema),
  /** The feedback linked to it, newest link first (500 at most). */
  feedback: Type.Array(LinkedFeedbackSchema),
});

const TriageTitle = Type.String({ minLength: 1, maxLength: 200 });
const TriageDescription = Type.String({ maxLength: 20_000 });
const ColumnRef = {
  columnId: Type.Optional(Type.String({ maxLength: 64 })),
  /** Alternative to `columnId`; send one of the two. */
  columnSlug: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
};

export const CreateAdminFeatureRequestBodySchema = Type.Object({
  appId: Type.String({ maxLength: 64 }),
  title: TriageTitle,
  description: Type.Optional(TriageDescription),
  ...ColumnRef,
  versionId: Type.Optional(Type.String({ maxLength: 64 })),
  /** The board it goes on, public or private (absent: the app's default board). */
  boardId: Type.Optional(Type.String({ maxLength: 64 })),
  /** Values of the app's custom fields for proposals, by key, checked as a proposal's are. */
  fields: Type.Optional(CustomFieldValuesBodySchema),
});

export const UpdateAdminFeatureRequestBodySchema = Type.Object({
  title: Type.Optional(TriageTitle),
  description: Type.Optional(TriageDescription),
  ...ColumnRef,
  /**
   * null detaches the request from its version. Null comes first: with ajv's type coercion a
   * string branch tried first would turn null into "".
   */
  versionId: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 64 })])),
  /** true approves (like POST …/approve), false declines (like POST …/decline). */
  approved: Type.Optional(Type.Boolean()),
  /** Custom field values to change, by key, checked against the fields its board asks for; null clears one, keys left out keep theirs. */
  fields: Type.Optional(CustomFieldValuesBodySchema),
});

export const BULK_MODERATE_ACTIONS = ["approve", "decline"] as const;
export const BulkModerateBodySchema = Type.Object({
  ids: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 100 }),
  action: StringEnum(BULK_MODERATE_ACTIONS),
});
export const BulkModerateResultSchema = Type.Object({
  /** How many requests changed state (those already in it are not counted). */
  updatedCount: Type.Integer(),
  updatedIds: Type.Array(Type.String()),
});

export const MergeFeatureRequestBodySchema = Type.Object({ intoId: Type.String({ maxLength: 64 }) });
export const MergeFeatureRequestResultSchema = Type.Object({
  duplicate: AdminFeatureRequestSchema,
  target: AdminFeatureRequestSchema,
});

export const HideCommentBodySchema = Type.Object({ isHidden: Type.Boolean() });

/** A team reply posted from the console. */
export const TeamCommentBodySchema = Type.Object({
  body: Type.String({ minLength: 1, maxLength: 5000 }),
  parentId: Type.Optional(Type.String({ maxLength: 64 })),
});
