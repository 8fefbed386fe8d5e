import type { SdkAppearance } from "@tidings/protocol";
import type { Selectable } from "kysely";
import { everyColumn } from "../db/every-column.js";
import type { AppsTable } from "../db/schema.js";

/** An app as the `apps` table stores it: settings as flags and JSON text. */
export type AppRow = Selectable<AppsTable>;

/** Every column of `apps`, named (see {@link everyColumn}). */
export const APP_COLUMNS = everyColumn<AppsTable>({
  id: true,
  workspaceId: true,
  appKey: true,
  name: true,
  slug: true,
  signingSecret: true,
  storeUrl: true,
  storeKind: true,
  appStoreUrl: true,
  googlePlayUrl: true,
  websiteUrl: true,
  iconUrl: true,
  hideSiteBranding: true,
  allowedEmbedOrigins: true,
  allowPublic: true,
  allowAnonymousRoadmap: true,
  allowAnonymousVote: true,
  allowAnonymousFeedback: true,
  allowAnonymousChangelog: true,
  portalIndexable: true,
  allowedPlatforms: true,
  maxAttachmentBytes: true,
  moderationPolicy: true,
  sdk: true,
  verificationProvider: true,
  verificationSiteKey: true,
  verificationSecret: true,
  verificationExempt: true,
  verificationTrustIdentified: true,
  requireIdentifiedUsers: true,
  createdAt: true,
  updatedAt: true,
});

/** Default attachment cap: 20 MB, what the official mobile SDKs assume. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 20_000_000;

/** Appearance and feature flags of a new app. */
export const DEFAULT_SDK: SdkAppearance = {
  theme: "system",
  features: { feedback: true, featureRequests: true, roadmap: true, changelog: true },
  changelogOverlay: { title: "What's New", subtitle: "", entryCount: 3, primaryButton: "Continue", closeButton: "Close" },
};

/** A JSON column of the row, or `fallback` when what it holds does not parse. */
export function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The stored `sdk` column, completed with defaults for any key a newer version added. */
export function sdkOf(row: AppRow): SdkAppearance {
  const stored = parseJson<Partial<SdkAppearance>>(row.sdk, {});
  return {
    theme: stored.theme ?? DEFAULT_SDK.theme,
    features: { ...DEFAULT_SDK.features, ...stored.features },
    changelogOverlay: { ...DEFAULT_SDK.changelogOverlay, ...stored.changelogOverlay },
  };
}
