import Type, { type Static } from "typebox";
import { StringEnum, PlatformSchema, Timestamp } from "./common.js";
import {
  ChangelogOverlaySchema,
  SdkAppearanceSchema,
  SdkFeaturesSchema,
  ThemeSchema,
  VerificationProviderSchema,
} from "./config.js";
import { SlugSchema } from "./console.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableUrl = Type.Union([Type.String({ format: "uri", maxLength: 2048, pattern: "^https?://" }), Type.Null()]);

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

/** What an app's settings hold: its record and its settings view both carry them. */
const settingsFields = {
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
};

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
  ...settingsFields,
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
  ...settingsFields,
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
