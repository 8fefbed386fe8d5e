import type { Platform } from "./platform.js";

/** Remote feature flags of the SDK surfaces (`sdk.features`); a missing key means enabled. */
export interface SdkFeatures {
  feedback?: boolean;
  featureRequests?: boolean;
  roadmap?: boolean;
  changelog?: boolean;
}

/** Theme names the server may set; clients show unknown names as `system`. */
export type ThemeName = "system" | "light" | "dark" | "midnight" | "ocean" | "forest" | "sunset" | "candy";

/** Texts and size of the changelog overlay. */
export interface ChangelogOverlayAppearance {
  title?: string;
  subtitle?: string;
  entryCount?: number;
  primaryButton?: string;
  closeButton?: string;
}

/** `sdk` block of the public config. Older servers omit it or parts of it. */
export interface SdkAppearance {
  theme?: string;
  features?: SdkFeatures;
  changelogOverlay?: ChangelogOverlayAppearance;
}

/** `GET /public/config/<APP_KEY>`: the app's public configuration (wire-contract §7.1). */
export interface PublicAppConfig {
  appId: string;
  appKey: string;
  name: string;
  slug?: string;
  iconUrl?: string | null;
  allowPublic: boolean;
  allowedPlatforms: Platform[];
  allowAnonymousRoadmap: boolean;
  allowAnonymousVote: boolean;
  allowAnonymousFeedback: boolean;
  allowAnonymousChangelog: boolean;
  maxAttachmentBytes: number;
  /**
   * `trustIdentifiedUsers`: a caller with a user hash or an SSO token needs no verification token
   * (absent from servers that predate it).
   */
  verification?: { provider: string; siteKey: string | null; required: boolean; trustIdentifiedUsers?: boolean };
  sdk?: SdkAppearance;
  [field: string]: unknown;
}
