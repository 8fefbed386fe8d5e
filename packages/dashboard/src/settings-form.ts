import { MAX_ATTACHMENT_BYTES_LIMIT, textLength, type AppPatch, type AppRecord } from "@tidings/protocol";
import { t } from "./i18n/t.js";

/** Field errors keyed by the server's field paths (`sdk.changelogOverlay.title`), so both kinds show in one place. */
export type FieldErrors = Record<string, readonly string[]>;

/** The settings form's state: text inputs stay strings until sent. */
export interface SettingsForm {
  allowPublic: boolean;
  allowAnonymousRoadmap: boolean;
  allowAnonymousVote: boolean;
  allowAnonymousFeedback: boolean;
  allowAnonymousChangelog: boolean;
  portalIndexable: boolean;
  requireIdentifiedUsers: boolean;
  allowedPlatforms: string[];
  maxAttachmentMb: string;
  features: { feedback: boolean; featureRequests: boolean; roadmap: boolean; changelog: boolean };
  theme: string;
  overlay: { title: string; subtitle: string; entryCount: string; primaryButton: string; closeButton: string };
  websiteUrl: string;
  iconUrl: string;
  appStoreUrl: string;
  googlePlayUrl: string;
  hideSiteBranding: boolean;
  moderationPolicy: string;
  provider: string;
  siteKey: string;
  secretKey: string;
  exempt: boolean;
  trustIdentifiedUsers: boolean;
}

/** The form for an app as the server describes it. */
export function formFromApp(app: AppRecord): SettingsForm {
  return {
    allowPublic: app.allowPublic,
    allowAnonymousRoadmap: app.allowAnonymousRoadmap,
    allowAnonymousVote: app.allowAnonymousVote,
    allowAnonymousFeedback: app.allowAnonymousFeedback,
    allowAnonymousChangelog: app.allowAnonymousChangelog,
    portalIndexable: app.portalIndexable,
    requireIdentifiedUsers: app.requireIdentifiedUsers,
    allowedPlatforms: [...app.allowedPlatforms],
    maxAttachmentMb: String(app.maxAttachmentBytes / 1_000_000),
    features: { ...app.sdk.features },
    theme: app.sdk.theme,
    overlay: { ...app.sdk.changelogOverlay, entryCount: String(app.sdk.changelogOverlay.entryCount) },
    websiteUrl: app.websiteUrl ?? "",
    iconUrl: app.iconUrl ?? "",
    appStoreUrl: app.appStoreUrl ?? "",
    googlePlayUrl: app.googlePlayUrl ?? "",
    hideSiteBranding: app.hideSiteBranding,
    moderationPolicy: app.moderationPolicy,
    provider: app.verification.provider,
    siteKey: app.verification.siteKey ?? "",
    secretKey: "",
    exempt: app.verification.exempt,
    trustIdentifiedUsers: app.verification.trustIdentifiedUsers,
  };
}

const URL_FIELDS = ["websiteUrl", "iconUrl", "appStoreUrl", "googlePlayUrl"] as const;
const OVERLAY_LIMITS = { title: 120, subtitle: 240, primaryButton: 60, closeButton: 60 } as const;

/**
 * The same checks the server makes, done before sending so mistakes show at once; an empty
 * object means the form may be sent.
 *
 * @example
 * ```ts
 * validateSettings({ ...form, maxAttachmentMb: "500" }); // { maxAttachmentBytes: ["Enter a size from 0.001 to 100 MB."] }
 * ```
 */
export function validateSettings(form: SettingsForm): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] = [...(errors[field] ?? []), message]);
  const mb = Number(form.maxAttachmentMb);
  if (form.maxAttachmentMb.trim() === "" || !Number.isFinite(mb) || mb * 1_000_000 < 1024 || mb * 1_000_000 > MAX_ATTACHMENT_BYTES_LIMIT) add("maxAttachmentBytes", t("validation.attachment"));
  for (const field of URL_FIELDS) {
    const value = form[field].trim();
    if (value !== "" && (!/^https?:\/\/\S+$/.test(value) || textLength(value) > 2048)) add(field, t("validation.url"));
  }
  const count = Number(form.overlay.entryCount);
  if (!Number.isInteger(count) || count < 1 || count > 10) add("sdk.changelogOverlay.entryCount", t("validation.entryCount"));
  for (const [key, max] of Object.entries(OVERLAY_LIMITS)) {
    if (textLength(form.overlay[key as keyof typeof OVERLAY_LIMITS]) > max) add(`sdk.changelogOverlay.${key}`, t("validation.tooLong", { max }));
  }
  if (textLength(form.siteKey) > 200) add("verification.siteKey", t("validation.tooLong", { max: 200 }));
  if (textLength(form.secretKey) > 500) add("verification.secretKey", t("validation.tooLong", { max: 500 }));
  return errors;
}

const orNull = (value: string) => (value.trim() === "" ? null : value.trim());

/** The settings body for `PUT …/apps/{appId}/settings` (a valid form: see {@link validateSettings}). */
export function patchFromForm(form: SettingsForm): AppPatch {
  const patch: AppPatch = {
    allowPublic: form.allowPublic,
    allowAnonymousRoadmap: form.allowAnonymousRoadmap,
    allowAnonymousVote: form.allowAnonymousVote,
    allowAnonymousFeedback: form.allowAnonymousFeedback,
    allowAnonymousChangelog: form.allowAnonymousChangelog,
    portalIndexable: form.portalIndexable,
    requireIdentifiedUsers: form.requireIdentifiedUsers,
    allowedPlatforms: form.allowedPlatforms as NonNullable<AppPatch["allowedPlatforms"]>,
    maxAttachmentBytes: Math.round(Number(form.maxAttachmentMb) * 1_000_000),
    sdk: {
      theme: form.theme as NonNullable<NonNullable<AppPatch["sdk"]>["theme"]>,
      features: form.features,
      changelogOverlay: { ...form.overlay, entryCount: Number(form.overlay.entryCount) },
    },
    websiteUrl: orNull(form.websiteUrl),
    iconUrl: orNull(form.iconUrl),
    appStoreUrl: orNull(form.appStoreUrl),
    googlePlayUrl: orNull(form.googlePlayUrl),
    hideSiteBranding: form.hideSiteBranding,
    moderationPolicy: form.moderationPolicy as NonNullable<AppPatch["moderationPolicy"]>,
    verification: {
      provider: form.provider as NonNullable<NonNullable<AppPatch["verification"]>["provider"]>,
      siteKey: orNull(form.siteKey),
      exempt: form.exempt,
      trustIdentifiedUsers: form.trustIdentifiedUsers,
      ...(form.secretKey.trim() === "" ? {} : { secretKey: form.secretKey.trim() }),
    },
  };
  return patch;
}
