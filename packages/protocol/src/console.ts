import Type, { type Static } from "typebox";
import { StringEnum, PlatformSchema, Timestamp } from "./common.js";
import {
  ChangelogOverlaySchema,
  SdkAppearanceSchema,
  SdkFeaturesSchema,
  ThemeSchema,
  VerificationProviderSchema,
} from "./config.js";
import { ColorSchema, ColumnKindSchema } from "./roadmap.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableUrl = Type.Union([Type.String({ format: "uri", maxLength: 2048, pattern: "^https?://" }), Type.Null()]);
export const SlugSchema = Type.String({ minLength: 2, maxLength: 64, pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" });

export const ROLES = ["owner", "admin", "member"] as const;
/** A console user's role in a workspace. */
export type Role = (typeof ROLES)[number];
export const RoleSchema = StringEnum(ROLES);

export const PLANS = ["free", "pro"] as const;
export const SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "canceled", "inactive"] as const;
/** Subscription status of a workspace; intake is refused unless active or trialing. */
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const WorkspaceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  plan: StringEnum(PLANS),
  subscriptionStatus: StringEnum(SUBSCRIPTION_STATUSES),
  monthlySubmissionQuota: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Workspace = Static<typeof WorkspaceSchema>;

export const MembershipSchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  userId: Type.String(),
  role: RoleSchema,
  email: Type.String(),
  displayName: NullableString,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Membership = Static<typeof MembershipSchema>;

export const MeResponseSchema = Type.Object({
  user: Type.Union([
    Type.Object({ id: Type.String(), email: Type.String(), displayName: NullableString }),
    Type.Null(),
  ]),
  isBootstrapAdmin: Type.Boolean(),
  workspaces: Type.Array(
    Type.Object({ workspace: WorkspaceSchema, membership: Type.Union([MembershipSchema, Type.Null()]) }),
  ),
});

export const CreateWorkspaceBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  slug: SlugSchema,
});
export const UpdateWorkspaceBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  plan: Type.Optional(StringEnum(PLANS)),
  subscriptionStatus: Type.Optional(StringEnum(SUBSCRIPTION_STATUSES)),
  monthlySubmissionQuota: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100_000_000 }), Type.Null()])),
});

export const AddMemberBodySchema = Type.Object({
  email: Type.String({ format: "email", maxLength: 254 }),
  role: RoleSchema,
  displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
});
export const UpdateMemberBodySchema = Type.Object({ role: RoleSchema });

export const API_TOKEN_SCOPES = ["read", "read-write"] as const;
/** What a console API token may do: only read, or whatever its user's role allows. */
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
export const ApiTokenScopeSchema = StringEnum(API_TOKEN_SCOPES);

export const CreateTokenBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  /** `read`: reads only, writes are refused with 403 `token_read_only`. @default "read-write" */
  scope: Type.Optional(ApiTokenScopeSchema),
  /** The one workspace the token reaches (the user must belong to it); absent, every workspace of the user. */
  workspaceId: Type.Optional(Type.String({ pattern: "^ws_[0-9a-z]{26}$", description: "An id starting with ws_" })),
});
export const ApiTokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  userId: Type.String(),
  scope: ApiTokenScopeSchema,
  /** The one workspace the token reaches, or null for every workspace of its user. */
  workspaceId: NullableString,
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()]),
});
export const ApiTokenCreatedSchema = Type.Object({
  ...ApiTokenSchema.properties,
  /** The secret, shown only in this answer. */
  token: Type.String(),
});

export const MODERATION_POLICIES = ["none", "anonymous", "all"] as const;
/** Which proposals wait for approval: none, unidentified ones, or all. */
export type ModerationPolicy = (typeof MODERATION_POLICIES)[number];
export const ModerationPolicySchema = StringEnum(MODERATION_POLICIES);

export const VerificationSettingsSchema = Type.Object({
  provider: VerificationProviderSchema,
  siteKey: NullableString,
  /** True when a secret key is stored; the secret itself is never returned. */
  hasSecret: Type.Boolean(),
  /** Exempts this app from human verification (server-side exemption). */
  exempt: Type.Boolean(),
  /** An identified caller (valid `X-User-Hash` or SSO token) counts as verified; on for new apps. */
  trustIdentifiedUsers: Type.Boolean(),
});

/** An app as the console sees it. */
export const AppRecordSchema = Type.Object({
  appId: Type.String(),
  workspaceId: Type.String(),
  appKey: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  storeUrl: NullableString,
  storeKind: NullableString,
  appStoreUrl: NullableString,
  googlePlayUrl: NullableString,
  websiteUrl: NullableString,
  iconUrl: NullableString,
  hideSiteBranding: Type.Boolean(),
  allowedEmbedOrigins: Type.Array(Type.String()),
  allowPublic: Type.Boolean(),
  allowAnonymousRoadmap: Type.Boolean(),
  allowAnonymousVote: Type.Boolean(),
  allowAnonymousFeedback: Type.Boolean(),
  allowAnonymousChangelog: Type.Boolean(),
  /** Search engines may index the public portal (robots meta, sitemap.xml). Off by default. */
  portalIndexable: Type.Boolean(),
  /** Writes (proposals, votes, comments, feedback, uploads) need an SSO token or `X-User-Hash`. */
  requireIdentifiedUsers: Type.Boolean(),
  allowedPlatforms: Type.Array(PlatformSchema),
  maxAttachmentBytes: Type.Integer(),
  moderationPolicy: ModerationPolicySchema,
  sdk: SdkAppearanceSchema,
  verification: VerificationSettingsSchema,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type AppRecord = Static<typeof AppRecordSchema>;

export const AppCreatedSchema = Type.Object({
  ...AppRecordSchema.properties,
  /** The signing secret, shown only here and when rotated. */
  signingSecret: Type.String(),
});
export const SigningSecretSchema = Type.Object({ appId: Type.String(), signingSecret: Type.String() });

/** The settings view of an app (wire-contract §11.4 AppSettings, plus the rest of the settings). */
export const AppSettingsSchema = Type.Object({
  appId: Type.String(),
  allowPublic: Type.Boolean(),
  allowAnonymousRoadmap: Type.Boolean(),
  allowAnonymousVote: Type.Boolean(),
  allowAnonymousFeedback: Type.Boolean(),
  allowAnonymousChangelog: Type.Boolean(),
  /** Search engines may index the public portal (robots meta, sitemap.xml). Off by default. */
  portalIndexable: Type.Boolean(),
  /** Writes (proposals, votes, comments, feedback, uploads) need an SSO token or `X-User-Hash`. */
  requireIdentifiedUsers: Type.Boolean(),
  allowedPlatforms: Type.Array(PlatformSchema),
  maxAttachmentBytes: Type.Integer(),
  moderationPolicy: ModerationPolicySchema,
  sdk: SdkAppearanceSchema,
  verification: VerificationSettingsSchema,
  updatedAt: Timestamp,
});

/** Maximum attachment size an operator may configure: 100 MB. */
export const MAX_ATTACHMENT_BYTES_LIMIT = 100_000_000;

/** Every writable app field; all optional. `sdk` and `verification` merge into what is stored. */
export const AppPatchSchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 2, maxLength: 120 })),
  slug: Type.Optional(SlugSchema),
  storeUrl: Type.Optional(NullableUrl),
  storeKind: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
  appStoreUrl: Type.Optional(NullableUrl),
  googlePlayUrl: Type.Optional(NullableUrl),
  websiteUrl: Type.Optional(NullableUrl),
  iconUrl: Type.Optional(NullableUrl),
  hideSiteBranding: Type.Optional(Type.Boolean()),
  allowedEmbedOrigins: Type.Optional(
    Type.Array(Type.String({ pattern: "^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?$", maxLength: 255 }), {
      maxItems: 10,
      uniqueItems: true,
    }),
  ),
  allowPublic: Type.Optional(Type.Boolean()),
  allowAnonymousRoadmap: Type.Optional(Type.Boolean()),
  allowAnonymousVote: Type.Optional(Type.Boolean()),
  allowAnonymousFeedback: Type.Optional(Type.Boolean()),
  allowAnonymousChangelog: Type.Optional(Type.Boolean()),
  portalIndexable: Type.Optional(Type.Boolean()),
  requireIdentifiedUsers: Type.Optional(Type.Boolean()),
  allowedPlatforms: Type.Optional(Type.Array(PlatformSchema, { maxItems: 5, uniqueItems: true })),
  maxAttachmentBytes: Type.Optional(Type.Integer({ minimum: 1024, maximum: MAX_ATTACHMENT_BYTES_LIMIT })),
  moderationPolicy: Type.Optional(ModerationPolicySchema),
  sdk: Type.Optional(
    Type.Object({
      theme: Type.Optional(ThemeSchema),
      features: Type.Optional(Type.Partial(SdkFeaturesSchema)),
      changelogOverlay: Type.Optional(Type.Partial(ChangelogOverlaySchema)),
    }),
  ),
  verification: Type.Optional(
    Type.Object({
      provider: Type.Optional(VerificationProviderSchema),
      siteKey: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()])),
      secretKey: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()])),
      exempt: Type.Optional(Type.Boolean()),
      trustIdentifiedUsers: Type.Optional(Type.Boolean()),
    }),
  ),
});
export type AppPatch = Static<typeof AppPatchSchema>;

export const CreateAppBodySchema = Type.Object({
  ...AppPatchSchema.properties,
  name: Type.String({ minLength: 2, maxLength: 120 }),
  /** Accepted for compatibility with console clients that repeat the path's workspace id. */
  workspaceId: Type.Optional(Type.String()),
});

export const CreateColumnBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60 }),
  slug: Type.Optional(SlugSchema),
  kind: Type.Optional(ColumnKindSchema),
  color: Type.Optional(Type.Union([ColorSchema, Type.Null()])),
  isVisible: Type.Optional(Type.Boolean()),
  /** Accepted for compatibility; the path names the app. */
  appId: Type.Optional(Type.String()),
});
export const UpdateColumnBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  color: Type.Optional(Type.Union([ColorSchema, Type.Null()])),
  isVisible: Type.Optional(Type.Boolean()),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});
export const ReorderColumnsBodySchema = Type.Object({
  columnIds: Type.Array(Type.String(), { minItems: 1, maxItems: 200 }),
});

export const CreateVersionBodySchema = Type.Object({
  label: Type.String({ minLength: 1, maxLength: 60 }),
  released: Type.Optional(Type.Boolean()),
  releasedAt: Type.Optional(Type.Union([Timestamp, Type.Null()])),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  appId: Type.Optional(Type.String()),
});
export const UpdateVersionBodySchema = Type.Object({
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  released: Type.Optional(Type.Boolean()),
  releasedAt: Type.Optional(Type.Union([Timestamp, Type.Null()])),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});
