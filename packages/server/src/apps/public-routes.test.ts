import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDialects } from "@tidings/testing/test-database";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";

describe.each(testDialects())("public config on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it("serves the demo app's full config", async () => {
    const res = await t.app.inject({ url: "/api/v1/public/config/app_demo" });
    expect(res.statusCode).toBe(200);
    const config = res.json();
    expect(config).toMatchObject({
      appKey: "app_demo",
      name: "Demo app",
      workspaceSlug: "demo",
      allowPublic: true,
      allowAnonymousRoadmap: true,
      allowAnonymousVote: true,
      allowAnonymousFeedback: true,
      allowAnonymousChangelog: true,
      maxAttachmentBytes: 20_000_000,
      sdk: {
        theme: "system",
        features: { feedback: true, featureRequests: true, roadmap: true, changelog: true },
        changelogOverlay: { title: "What's New", entryCount: 3 },
      },
    });
    expect(config.appId).toMatch(/^app_/);
    expect(config).not.toHaveProperty("signingSecret");
    expect(JSON.stringify(config)).not.toContain("tsk_");
  });

  it("answers unknown, malformed and private keys with the same 404 bytes and headers", async () => {
    const { appKey, wsId, appId, console: c } = await createWorkspaceWithApp(t.app, t.admin.authorization, "private-co");
    expect((await c.put(`/workspaces/${wsId}/apps/${appId}/settings`, { allowPublic: false })).status).toBe(200);

    const answers = await Promise.all(
      [appKey, "app_doesnotexist000000000000000000", "%00", "app_%3Cscript%3E", "x".repeat(500)].map((key) =>
        t.app.inject({ url: `/api/v1/public/config/${key}` }),
      ),
    );
    const strip = (headers: Record<string, unknown>) => {
      const { "x-request-id": _id, date: _date, ...rest } = headers;
      return rest;
    };
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe('{"error":"App not found"}');
      expect(strip(res.headers)).toEqual(strip(answers[0]!.headers));
    }
  });

  it("reflects a console change at once, through the cache", async () => {
    const { appKey, wsId, appId, console: c } = await createWorkspaceWithApp(t.app, t.admin.authorization, "reflect-co");
    const before = await t.app.inject({ url: `/api/v1/public/config/${appKey}` });
    expect(before.json().allowAnonymousVote).toBe(true);
    expect(before.json().name).toBe("Acme Notes");

    const put = await c.put(`/workspaces/${wsId}/apps/${appId}/settings`, {
      allowAnonymousVote: false,
      allowedPlatforms: ["ios"],
      sdk: { theme: "dark", features: { roadmap: false } },
    });
    expect(put.status).toBe(200);
    await c.put(`/workspaces/${wsId}/apps/${appId}`, { name: "Acme Notes Pro" });

    const after = (await t.app.inject({ url: `/api/v1/public/config/${appKey}` })).json();
    expect(after.allowAnonymousVote).toBe(false);
    expect(after.allowedPlatforms).toEqual(["ios"]);
    expect(after.name).toBe("Acme Notes Pro");
    expect(after.sdk.theme).toBe("dark");
    expect(after.sdk.features).toEqual({ feedback: true, featureRequests: true, roadmap: false, changelog: true });

    // Making the app private removes it from the public surface at once.
    await c.put(`/workspaces/${wsId}/apps/${appId}/settings`, { allowPublic: false });
    expect((await t.app.inject({ url: `/api/v1/public/config/${appKey}` })).statusCode).toBe(404);
  });

  it("answers 304 to a matching If-None-Match and sends shared caching headers", async () => {
    const first = await t.app.inject({ url: "/api/v1/public/config/app_demo" });
    expect(first.headers["cache-control"]).toBe("public, max-age=30");
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const second = await t.app.inject({ url: "/api/v1/public/config/app_demo", headers: { "if-none-match": etag } });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe("");
  });
});

describe("public config in production", () => {
  it("tells clients that the built-in altcha is required unless the app is exempt", async () => {
    const t = await createTestApp("sqlite", { production: true });
    try {
      const config = (await t.app.inject({ url: "/api/v1/public/config/app_demo" })).json();
      expect(config.verification).toEqual({ provider: "altcha", siteKey: null, required: true, trustIdentifiedUsers: true });
      const me = (await t.app.inject({ url: "/api/v1/console/me", headers: t.admin })).json();
      const wsId = me.workspaces[0].workspace.id;
      const apps = (await t.app.inject({ url: `/api/v1/console/workspaces/${wsId}/apps`, headers: t.admin })).json();
      await t.app.inject({
        method: "PUT",
        url: `/api/v1/console/workspaces/${wsId}/apps/${apps.apps[0].appId}/settings`,
        headers: t.admin,
        payload: { verification: { exempt: true } },
      });
      const exempt = (await t.app.inject({ url: "/api/v1/public/config/app_demo" })).json();
      expect(exempt.verification.required).toBe(false);
    } finally {
      await t.close();
    }
  });
});

