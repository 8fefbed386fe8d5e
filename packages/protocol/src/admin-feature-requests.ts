import Type, { type Static } from "typebox";
import { MAX_LIST_OFFSET, PageOffset, StringEnum, Timestamp } from "./common.js";
import { RequestCompanySchema, RevenueByCurrencySchema } from "./companies.js";
import { CustomFieldValuesBodySchema, RecordFieldSchema } from "./custom-fields.js";
import { PublicTagSchema, TagVisibilitySchema } from "./tags.js";

import { FeatureRequestItemSchema } from "./feature-requests.js";
import { FeatureRequestVoterSchema } from "./request-voters.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

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
