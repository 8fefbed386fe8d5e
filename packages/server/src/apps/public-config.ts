import type { PublicAppConfig } from "@tidings/protocol";
import type { AppRow } from "./app-row.js";
import { toAppRecord } from "./app-record.js";
import { requiredProvider } from "./verification-policy.js";

/**
 * The public configuration of a public app. `production` matters because production enforces
 * human verification (the built-in altcha) on apps that configured no provider.
 */
export function toPublicConfig(row: AppRow, workspaceSlug: string, production: boolean): PublicAppConfig {
  const r = toAppRecord(row);
  const provider = requiredProvider(row, production);
  const config: PublicAppConfig = {
    appId: r.appId,
    appKey: r.appKey,
    workspaceSlug,
    slug: r.slug,
    name: r.name,
    storeUrl: r.storeUrl,
    storeKind: r.storeKind,
    appStoreUrl: r.appStoreUrl,
    googlePlayUrl: r.googlePlayUrl,
    websiteUrl: r.websiteUrl,
    iconUrl: r.iconUrl,
    allowPublic: true,
    hideSiteBranding: r.hideSiteBranding,
    allowedPlatforms: r.allowedPlatforms,
    maxAttachmentBytes: r.maxAttachmentBytes,
    allowAnonymousRoadmap: r.allowAnonymousRoadmap,
    allowAnonymousVote: r.allowAnonymousVote,
    allowAnonymousFeedback: r.allowAnonymousFeedback,
    allowAnonymousChangelog: r.allowAnonymousChangelog,
    verification: {
      provider: provider ?? r.verification.provider,
      siteKey: provider === "altcha" ? null : r.verification.siteKey,
      required: provider !== null,
      trustIdentifiedUsers: r.verification.trustIdentifiedUsers,
    },
    sdk: r.sdk,
  };
  if (r.allowedEmbedOrigins.length > 0) config.allowedEmbedOrigins = r.allowedEmbedOrigins;
  return config;
}
