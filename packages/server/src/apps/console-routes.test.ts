import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("console apps on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(() => t.close());

  it("creates an app with a random key and shows its signing secret only once", async () => {
    expect(acme.appKey).toMatch(/^app_[A-Za-z0-9_-]{24,}$/);
    expect(acme.signingSecret).toMatch(/^tsk_[A-Za-z0-9_-]{40}$/);
    const read = await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}`);
    expect(read.body.appKey).toBe(acme.appKey);
    expect(read.body).not.toHaveProperty("signingSecret");
    const list = await acme.console.get(`/workspaces/${acme.wsId}/apps`);
    expect(JSON.stringify(list.body)).not.toContain(acme.signingSecret);
    expect(list.body.total).toBe(1);
  });

  it("updates every kind of setting and merges sdk and verification", async () => {
    const res = await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, {
      allowAnonymousFeedback: false,
      allowAnonymousChangelog: false,
      allowedPlatforms: ["ios", "android"],
      maxAttachmentBytes: 5_000_000,
      moderationPolicy: "all",
      sdk: { changelogOverlay: { title: "Nouveautés", entryCount: 5 } },
      verification: { provider: "turnstile", siteKey: "0x4AAA", secretKey: "secret-xyz" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      allowAnonymousFeedback: false,
      allowAnonymousChangelog: false,
      allowedPlatforms: ["ios", "android"],
      maxAttachmentBytes: 5_000_000,
      moderationPolicy: "all",
      verification: { provider: "turnstile", siteKey: "0x4AAA", hasSecret: true, exempt: false },
    });
    expect(res.body.sdk.changelogOverlay).toEqual({
      title: "Nouveautés",
      subtitle: "",
      entryCount: 5,
      primaryButton: "Continue",
      closeButton: "Close",
    });
    expect(JSON.stringify(res.body)).not.toContain("secret-xyz");
    const branding = await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}`, {
      websiteUrl: "https://acme.example",
      iconUrl: null,
      hideSiteBranding: true,
      allowedEmbedOrigins: ["https://acme.example"],
    });
    expect(branding.body).toMatchObject({ websiteUrl: "https://acme.example", hideSiteBranding: true });
    const config = (await t.app.inject({ url: `/api/v1/public/config/${acme.appKey}` })).json();
    expect(config.verification).toEqual({ provider: "turnstile", siteKey: "0x4AAA", required: true, trustIdentifiedUsers: true });
    expect(config.allowedEmbedOrigins).toEqual(["https://acme.example"]);
    const settings = await acme.console.get(`/workspaces/${acme.wsId}/settings`);
    expect(settings.body.apps[0].settings.moderationPolicy).toBe("all");
  });

  it("refuses invalid settings with field errors and changes nothing", async () => {
    const before = await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}`);
    const res = await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, {
      allowPublic: false,
      allowedPlatforms: ["ios", "windows"],
      maxAttachmentBytes: -1,
      sdk: { theme: "neon" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.details.fieldErrors)).toEqual(
      expect.arrayContaining(["allowedPlatforms.1", "maxAttachmentBytes", "sdk.theme"]),
    );
    const after = await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}`);
    expect(after.body).toEqual(before.body);
  });

  it("refuses a slug another app of the workspace uses", async () => {
    const second = await acme.console.post(`/workspaces/${acme.wsId}/apps`, { name: "Second", slug: "second" });
    expect(second.status).toBe(201);
    const clash = await acme.console.put(`/workspaces/${acme.wsId}/apps/${second.body.appId}`, { slug: "acme-notes" });
    expect(clash.status).toBe(409);
    const dup = await acme.console.post(`/workspaces/${acme.wsId}/apps`, { name: "Third", slug: "second" });
    expect(dup.status).toBe(409);
    const auto = await acme.console.post(`/workspaces/${acme.wsId}/apps`, { name: "Second" });
    expect(auto.body.slug).toBe("second-2");
  });

  it("refuses NUL characters in any text the same way on every database", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/v1/console/workspaces/${acme.wsId}/apps/${acme.appId}`,
      headers: { ...t.admin, "content-type": "application/json" },
      payload: '{"name":"bad\\u0000name"}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("invalid_text");
  });
});
