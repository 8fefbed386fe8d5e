import type { AppPatch, SdkAppearance } from "@tidings/protocol";
import type { Flag } from "../db/schema.js";
import { DEFAULT_SDK, sdkOf, type AppRow } from "./app-row.js";

const flag = (value: boolean): Flag => (value ? 1 : 0);

/** Column values for a patch, merging `sdk` and `verification` into what `current` stores. */
export function patchColumns(patch: AppPatch, current: AppRow | null): Partial<AppRow> {
  const out: Partial<AppRow> = {};
  const copy = <K extends keyof AppPatch & keyof AppRow>(key: K) => {
    if (patch[key] !== undefined) (out as Record<string, unknown>)[key] = patch[key];
  };
  copy("name");
  copy("slug");
  copy("storeUrl");
  copy("storeKind");
  copy("appStoreUrl");
  copy("googlePlayUrl");
  copy("websiteUrl");
  copy("iconUrl");
  copy("maxAttachmentBytes");
  copy("moderationPolicy");
  for (const key of [
    "hideSiteBranding",
    "allowPublic",
    "allowAnonymousRoadmap",
    "allowAnonymousVote",
    "allowAnonymousFeedback",
    "allowAnonymousChangelog",
    "portalIndexable",
    "requireIdentifiedUsers",
  ] as const) {
    const value = patch[key];
    if (value !== undefined) out[key] = flag(value);
  }
  if (patch.allowedPlatforms !== undefined) out.allowedPlatforms = JSON.stringify(patch.allowedPlatforms);
  if (patch.allowedEmbedOrigins !== undefined) out.allowedEmbedOrigins = JSON.stringify(patch.allowedEmbedOrigins);
  if (patch.sdk !== undefined) {
    const base = current === null ? DEFAULT_SDK : sdkOf(current);
    const merged: SdkAppearance = {
      theme: patch.sdk.theme ?? base.theme,
      features: { ...base.features, ...patch.sdk.features },
      changelogOverlay: { ...base.changelogOverlay, ...patch.sdk.changelogOverlay },
    };
    out.sdk = JSON.stringify(merged);
  }
  const v = patch.verification;
  if (v !== undefined) {
    if (v.provider !== undefined) out.verificationProvider = v.provider;
    if (v.siteKey !== undefined) out.verificationSiteKey = v.siteKey;
    if (v.secretKey !== undefined) out.verificationSecret = v.secretKey;
    if (v.exempt !== undefined) out.verificationExempt = flag(v.exempt);
    if (v.trustIdentifiedUsers !== undefined) out.verificationTrustIdentified = flag(v.trustIdentifiedUsers);
  }
  return out;
}
