import type { AppRecord, VerificationProvider } from "@tidings/protocol";
import { parseJson, sdkOf, type AppRow } from "./app-row.js";

function verificationOf(row: AppRow) {
  return {
    provider: row.verificationProvider as VerificationProvider,
    siteKey: row.verificationSiteKey,
    hasSecret: row.verificationSecret !== null,
    exempt: row.verificationExempt === 1,
    trustIdentifiedUsers: row.verificationTrustIdentified === 1,
  };
}

/** The console view of an app (never the signing or verification secret). */
export function toAppRecord(row: AppRow): AppRecord {
  return {
    appId: row.id,
    workspaceId: row.workspaceId,
    appKey: row.appKey,
    slug: row.slug,
    name: row.name,
    storeUrl: row.storeUrl,
    storeKind: row.storeKind,
    appStoreUrl: row.appStoreUrl,
    googlePlayUrl: row.googlePlayUrl,
    websiteUrl: row.websiteUrl,
    iconUrl: row.iconUrl,
    hideSiteBranding: row.hideSiteBranding === 1,
    allowedEmbedOrigins: parseJson<string[]>(row.allowedEmbedOrigins, []),
    allowPublic: row.allowPublic === 1,
    allowAnonymousRoadmap: row.allowAnonymousRoadmap === 1,
    allowAnonymousVote: row.allowAnonymousVote === 1,
    allowAnonymousFeedback: row.allowAnonymousFeedback === 1,
    allowAnonymousChangelog: row.allowAnonymousChangelog === 1,
    portalIndexable: row.portalIndexable === 1,
    requireIdentifiedUsers: row.requireIdentifiedUsers === 1,
    allowedPlatforms: parseJson<AppRecord["allowedPlatforms"]>(row.allowedPlatforms, []),
    maxAttachmentBytes: row.maxAttachmentBytes,
    moderationPolicy: row.moderationPolicy as AppRecord["moderationPolicy"],
    sdk: sdkOf(row),
    verification: verificationOf(row),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The settings view (wire-contract AppSettings plus the rest of the settings). */
export function toAppSettings(row: AppRow) {
  const r = toAppRecord(row);
  return {
    appId: r.appId,
    allowPublic: r.allowPublic,
    allowAnonymousRoadmap: r.allowAnonymousRoadmap,
    allowAnonymousVote: r.allowAnonymousVote,
    allowAnonymousFeedback: r.allowAnonymousFeedback,
    allowAnonymousChangelog: r.allowAnonymousChangelog,
    portalIndexable: r.portalIndexable,
    requireIdentifiedUsers: r.requireIdentifiedUsers,
    allowedPlatforms: r.allowedPlatforms,
    maxAttachmentBytes: r.maxAttachmentBytes,
    moderationPolicy: r.moderationPolicy,
    sdk: r.sdk,
    verification: r.verification,
    updatedAt: r.updatedAt,
  };
}
