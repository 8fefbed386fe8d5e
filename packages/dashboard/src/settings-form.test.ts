import type { AppRecord } from "@tidings/protocol";
import { describe, expect, it } from "vitest";
import { formFromApp, patchFromForm, validateSettings } from "./settings-form.js";

const app = {
  appId: "app_1",
  allowPublic: true,
  allowAnonymousRoadmap: true,
  allowAnonymousVote: false,
  allowAnonymousFeedback: true,
  allowAnonymousChangelog: true,
  portalIndexable: false,
  allowedPlatforms: ["ios", "web"],
  maxAttachmentBytes: 20_000_000,
  sdk: {
    theme: "system",
    features: { feedback: true, featureRequests: true, roadmap: true, changelog: false },
    changelogOverlay: { title: "New", subtitle: "", entryCount: 3, primaryButton: "OK", closeButton: "Close" },
  },
  websiteUrl: null,
  iconUrl: null,
  appStoreUrl: null,
  googlePlayUrl: null,
  hideSiteBranding: false,
  moderationPolicy: "anonymous",
  verification: { provider: "none", siteKey: null, hasSecret: false, exempt: false, trustIdentifiedUsers: false },
} as unknown as AppRecord;

describe("settings form", () => {
  it("accepts the form of a stored app and sends it back unchanged, keeping the stored secret key", () => {
    const form = formFromApp(app);
    expect(validateSettings(form)).toEqual({});
    const patch = patchFromForm(form);
    expect(patch).toMatchObject({ maxAttachmentBytes: 20_000_000, allowedPlatforms: ["ios", "web"], websiteUrl: null });
    expect(patch.verification).not.toHaveProperty("secretKey");
    expect(patch.verification).toMatchObject({ exempt: false, trustIdentifiedUsers: false });
    expect(patchFromForm({ ...form, trustIdentifiedUsers: true }).verification).toMatchObject({ trustIdentifiedUsers: true });
    expect(patch.sdk?.changelogOverlay?.entryCount).toBe(3);
  });

  it("names the server's field paths for every mistake, before anything is sent", () => {
    const form = formFromApp(app);
    const errors = validateSettings({
      ...form,
      maxAttachmentMb: "500",
      websiteUrl: "example.com",
      overlay: { ...form.overlay, entryCount: "11", title: "x".repeat(121) },
    });
    expect(Object.keys(errors).sort()).toEqual(["maxAttachmentBytes", "sdk.changelogOverlay.entryCount", "sdk.changelogOverlay.title", "websiteUrl"]);
    expect(validateSettings({ ...form, maxAttachmentMb: "" }).maxAttachmentBytes).toHaveLength(1);
    expect(validateSettings({ ...form, maxAttachmentMb: "0.0005" }).maxAttachmentBytes).toHaveLength(1);
  });

  it("counts text in characters as the server does, so emoji fill a limit one each", () => {
    const form = formFromApp(app);
    const full = { ...form, overlay: { ...form.overlay, title: "🦄".repeat(120), primaryButton: "👍🏽".repeat(30), closeButton: "🦄".repeat(60) } };
    expect(validateSettings(full)).toEqual({});
    expect(Object.keys(validateSettings({ ...full, overlay: { ...full.overlay, closeButton: "🦄".repeat(61) } }))).toEqual(["sdk.changelogOverlay.closeButton"]);
    expect(validateSettings({ ...form, maxAttachmentMb: "100" })).toEqual({});
  });
});
