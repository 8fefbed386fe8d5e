import Type, { type Static } from "typebox";
import { StringEnum, PlatformSchema } from "./common.js";

export const THEMES = ["system", "light", "dark", "midnight", "ocean", "forest", "sunset", "candy"] as const;
/** A theme name; unknown names are shown as `system` by clients. */
export type ThemeName = (typeof THEMES)[number];
export const ThemeSchema = StringEnum(THEMES);

export const SdkFeaturesSchema = Type.Object({
  feedback: Type.Boolean(),
  featureRequests: Type.Boolean(),
  roadmap: Type.Boolean(),
  changelog: Type.Boolean(),
});
export type SdkFeatures = Static<typeof SdkFeaturesSchema>;

export const ChangelogOverlaySchema = Type.Object({
  title: Type.String({ maxLength: 120 }),
  subtitle: Type.String({ maxLength: 240 }),
  entryCount: Type.Integer({ minimum: 1, maximum: 10 }),
  primaryButton: Type.String({ maxLength: 60 }),
  closeButton: Type.String({ maxLength: 60 }),
});
export type ChangelogOverlay = Static<typeof ChangelogOverlaySchema>;

export const SdkAppearanceSchema = Type.Object({
  theme: ThemeSchema,
  features: SdkFeaturesSchema,
  changelogOverlay: ChangelogOverlaySchema,
});
export type SdkAppearance = Static<typeof SdkAppearanceSchema>;

export const VERIFICATION_PROVIDERS = ["none", "turnstile", "hcaptcha", "recaptcha", "altcha"] as const;
/** Human-verification provider of an app. */
export type VerificationProvider = (typeof VERIFICATION_PROVIDERS)[number];
export const VerificationProviderSchema = StringEnum(VERIFICATION_PROVIDERS);

/** What a client needs to render the app's verification widget. */
export const PublicVerificationSchema = Type.Object({
  provider: VerificationProviderSchema,
  siteKey: Type.Union([Type.String(), Type.Null()]),
  required: Type.Boolean(),
  /**
   * True when an identified caller (valid `X-User-Hash` or SSO token) counts as verified: such a
   * caller sends no verification token. Absent from servers that predate it.
   */
  trustIdentifiedUsers: Type.Optional(Type.Boolean()),
});

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** `GET /api/v1/public/config/<APP_KEY>` answer (wire-contract §7.1). */
export const PublicAppConfigSchema = Type.Object(
  {
    appId: Type.String(),
    appKey: Type.String(),
    workspaceSlug: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    storeUrl: NullableString,
    storeKind: NullableString,
    appStoreUrl: NullableString,
    googlePlayUrl: NullableString,
    websiteUrl: NullableString,
    iconUrl: NullableString,
    allowPublic: Type.Literal(true),
    hideSiteBranding: Type.Boolean(),
    allowedPlatforms: Type.Array(PlatformSchema),
    maxAttachmentBytes: Type.Integer(),
    allowAnonymousRoadmap: Type.Boolean(),
    allowAnonymousVote: Type.Boolean(),
    allowAnonymousFeedback: Type.Boolean(),
    allowAnonymousChangelog: Type.Boolean(),
    allowedEmbedOrigins: Type.Optional(Type.Array(Type.String())),
    verification: PublicVerificationSchema,
    sdk: SdkAppearanceSchema,
  },
);
export type PublicAppConfig = Static<typeof PublicAppConfigSchema>;
