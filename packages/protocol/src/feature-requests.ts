import Type, { type Static } from "typebox";
import { MAX_SAFE_INTEGER, PageOffset, StringEnum, Timestamp } from "./common.js";
import { CustomFieldValuesBodySchema } from "./custom-fields.js";
import { PublicTagSchema } from "./tags.js";

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
