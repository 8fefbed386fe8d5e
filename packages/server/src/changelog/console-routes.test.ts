import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { testDialects } from "@tidings/testing/test-database";
import { userHash } from "../users/identity.js";
import { createMailTestApp, type MailTestApp } from "@tidings/testing/changelog-kit";

describe.each(testDialects())("changelog console and public feed on %s", (dialect) => {
  let t: MailTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  let frId: string;
  beforeAll(async () => {
    t = await createMailTestApp(dialect, {});
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    frId = (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title: "Offline mode" })).body.id;
  });
  afterAll(() => t.close());

  const base = () => `/workspaces/${acme.wsId}/changelog`;
  const feed = (query = "", headers: Record<string, string> = {}) =>
    t.app.inject({ url: `/api/v1/public/apps/${acme.appKey}/changelog${query}`, headers });

  it("creates a draft with linked requests that the public feed does not show", async () => {
    const created = await acme.console.post(base(), {
      appId: acme.appId,
      title: "1.0",
      body: "**Hello** <script>alert(1)</script>",
      versionLabel: "1.0.0",
      linkedRequestIds: [frId],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "draft",
      publishedAt: null,
      linkedRequests: [{ id: frId, title: "Offline mode" }],
      subscriberCount: 0,
      delivery: { total: 0, sent: 0, pending: 0, failed: 0 },
    });
    expect((await feed()).json()).toEqual({ entries: [], hasMore: false, nextCursor: null });
  });

  it("refuses links to requests of another app and unknown versions with 404, writing nothing", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other-co");
    const foreign = (await other.console.post(`/workspaces/${other.wsId}/feature-requests`, { appId: other.appId, title: "Theirs" })).body.id;
    const before = (await acme.console.get(base())).body.total;
    const res = await acme.console.post(base(), { appId: acme.appId, title: "x", body: "", linkedRequestIds: [foreign] });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("feature_request_not_found");
    expect((await acme.console.post(base(), { appId: acme.appId, title: "x", body: "", versionId: "ver_00000000000000000000000000" })).status).toBe(404);
    expect((await acme.console.post(base(), { appId: acme.appId, title: "x", body: "", scheduledAt: "" })).status).toBe(400);
    expect((await acme.console.get(base())).body.total).toBe(before);
  });

  it("refuses a schedule on a leap second (RFC 3339 allows it, a JavaScript date cannot hold it) with 400, writing nothing", async () => {
    const before = (await acme.console.get(base())).body.total;
    const draft = await acme.console.post(base(), { appId: acme.appId, title: "Leap", body: "" });
    for (const scheduledAt of ["2016-12-31T23:59:60Z", "2016-12-31T23:59:60.5+00:00"]) {
      const created = await acme.console.post(base(), { appId: acme.appId, title: "x", body: "", scheduledAt });
      const edited = await acme.console.put(`${base()}/${draft.body.id}`, { scheduledAt });
      expect([created.status, created.body.code, edited.status, edited.body.code]).toEqual([400, "validation_failed", 400, "validation_failed"]);
    }
    expect((await acme.console.get(`${base()}/${draft.body.id}`)).body).toMatchObject({ status: "draft", scheduledAt: null });
    expect((await acme.console.get(base())).body.total).toBe(before + 1);
  });

  it("lets members write drafts but only owners and admins publish or schedule", async () => {
    const add = await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "mia@example.com", role: "member" });
    const token = await acme.console.post(`/users/${add.body.member.userId}/tokens`, { name: "mia" });
    const mia = consoleClient(t.app, `Bearer ${token.body.token}`);
    const draft = await mia.post(base(), { appId: acme.appId, title: "Member draft", body: "text" });
    expect(draft.status).toBe(201);
    expect((await mia.post(`${base()}/${draft.body.id}/publish`)).status).toBe(403);
    expect((await mia.post(base(), { appId: acme.appId, title: "x", body: "", publishNow: true })).body.code).toBe("capability_required");
    expect((await mia.put(`${base()}/${draft.body.id}`, { scheduledAt: "2026-02-01T00:00:00Z" })).status).toBe(403);
    expect((await mia.put(`${base()}/${draft.body.id}`, { title: "Renamed" })).body.title).toBe("Renamed");
    expect((await mia.delete(`${base()}/${draft.body.id}`)).status).toBe(200);
    expect((await acme.console.get(`${base()}/${draft.body.id}`)).status).toBe(404);
  });

  it("publishes newest first with sanitised html and linked requests, and pages with a cursor", async () => {
    const [draft] = (await acme.console.get(`${base()}?appId=${acme.appId}`)).body.entries.filter((e: { title: string }) => e.title === "1.0");
    expect((await acme.console.post(`${base()}/${draft.id}/publish`)).body).toMatchObject({ status: "published", publishedAt: t.clock.now().toISOString() });
    t.clock.advance(60_000);
    const second = await acme.console.post(base(), { appId: acme.appId, title: "1.1", body: "[x](javascript:alert(1))", publishNow: true });
    expect(second.body.status).toBe("published");

    const page1 = (await feed("?limit=1")).json();
    expect(page1.entries.map((e: { title: string }) => e.title)).toEqual(["1.1"]);
    expect(page1.hasMore).toBe(true);
    const page2 = (await feed(`?limit=1&cursor=${page1.nextCursor}`)).json();
    expect(page2).toMatchObject({ hasMore: false, nextCursor: null });
    const [entry] = page2.entries;
    expect(Object.keys(entry).sort()).toEqual(["blocks", "body", "html", "id", "linkedRequests", "publishedAt", "title", "versionLabel"]);
    expect(entry).toMatchObject({ title: "1.0", versionLabel: "1.0.0", linkedRequests: [{ id: frId, title: "Offline mode" }] });
    expect(entry.html).toContain("<strong>Hello</strong>");
    expect(entry.html).not.toContain("<script");
    expect(page1.entries[0].html).not.toContain("javascript:alert");
    // The same parse as tokens, for renderers without HTML: the refused link keeps its text only.
    expect(page1.entries[0].blocks).toEqual([{ type: "paragraph", children: [{ type: "text", text: "x" }] }]);
    expect(JSON.stringify(entry.blocks)).toContain('{"type":"strong","children":[{"type":"text","text":"Hello"}]}');
    expect((await feed("?cursor=garbage")).statusCode).toBe(400);
  });

  it("caches anonymous answers with an ETag and drops them on every console write", async () => {
    const first = await feed();
    expect(first.headers["cache-control"]).toBe("public, max-age=30");
    const etag = first.headers.etag as string;
    expect((await feed("", { "if-none-match": etag })).statusCode).toBe(304);
    const [latest] = first.json().entries;
    expect((await acme.console.put(`${base()}/${latest.id}`, { title: "1.1 final" })).status).toBe(200);
    const after = await feed("", { "if-none-match": etag });
    expect(after.statusCode).toBe(200);
    expect(after.json().entries[0].title).toBe("1.1 final");
    expect((await acme.console.post(`${base()}/${latest.id}/unpublish`)).body.status).toBe("draft");
    expect((await feed()).json().entries.map((e: { title: string }) => e.title)).toEqual(["1.0"]);
  });

  it("answers 401 authentication_required when the anonymous changelog is off, and serves identified callers privately", async () => {
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { allowAnonymousChangelog: false });
    const res = await feed();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: "Sign in is required to view this changelog", code: "authentication_required" });
    const subscribe = await t.app.inject({ method: "POST", url: `/api/v1/public/apps/${acme.appKey}/changelog/subscribe`, payload: { email: "a@example.com" } });
    expect(subscribe.statusCode).toBe(401);
    const identified = await feed("", { "x-user-token": "user-1", "x-user-hash": userHash(acme.signingSecret, "user-1") });
    expect(identified.statusCode).toBe(200);
    expect(identified.headers["cache-control"]).toContain("private");
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { allowAnonymousChangelog: true });
  });

  it("hides linked request titles from anonymous callers when the roadmap is closed", async () => {
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { allowAnonymousRoadmap: false });
    expect((await feed()).json().entries[0].linkedRequests).toEqual([]);
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { allowAnonymousRoadmap: true });
    expect((await feed()).json().entries[0].linkedRequests).toHaveLength(1);
  });

  it("publishes a scheduled release when the job runner ticks after its time", async () => {
    const at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const created = await acme.console.post(base(), { appId: acme.appId, title: "Scheduled", body: "soon", scheduledAt: at });
    expect(created.body).toMatchObject({ status: "scheduled", scheduledAt: at });
    await t.app.jobs.tick();
    expect((await acme.console.get(`${base()}/${created.body.id}`)).body.status).toBe("scheduled");
    t.clock.advance(3_600_000);
    await t.app.jobs.tick();
    expect((await acme.console.get(`${base()}/${created.body.id}`)).body).toMatchObject({ status: "published", publishedAt: at, scheduledAt: null });
    expect((await feed()).json().entries[0].title).toBe("Scheduled");
    // Unscheduling with null returns a scheduled entry to draft.
    const other = await acme.console.post(base(), { appId: acme.appId, title: "Later", body: "", scheduledAt: at });
    expect((await acme.console.put(`${base()}/${other.body.id}`, { scheduledAt: null })).body).toMatchObject({ status: "draft", scheduledAt: null });
  });

  it("answers 404 for entries of other workspaces and unknown apps", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "third-co");
    const mine = (await acme.console.get(base())).body.entries[0].id;
    expect((await other.console.get(`/workspaces/${other.wsId}/changelog/${mine}`)).status).toBe(404);
    expect((await t.app.inject({ url: "/api/v1/public/apps/app_unknown/changelog" })).statusCode).toBe(404);
  });

  it("refuses every version id that is not one of the entry's app with 404 version_not_found, with or without a label, writing nothing", async () => {
    const versions = (appId: string) => `/workspaces/${acme.wsId}/apps/${appId}/versions`;
    const own = (await acme.console.post(versions(acme.appId), { label: "2.0" })).body.id as string;
    const sibling = await acme.console.post(`/workspaces/${acme.wsId}/apps`, { name: "Acme Sheets" });
    const siblingVersion = (await acme.console.post(versions(sibling.body.appId), { label: "9.9" })).body.id as string;
    const stranger = await createWorkspaceWithApp(t.app, t.admin.authorization, "fourth-co");
    const strangerVersion = (await stranger.console.post(`/workspaces/${stranger.wsId}/apps/${stranger.appId}/versions`, { label: "7.0" })).body.id as string;
    const entry = (await acme.console.post(base(), { appId: acme.appId, title: "Versioned", body: "", versionId: own })).body;
    expect(entry).toMatchObject({ versionId: own, versionLabel: "2.0" });

    const badIds = ["ver_00000000000000000000000000", "", "   ", siblingVersion, strangerVersion, own.toUpperCase()];
    const labels = [{}, { versionLabel: "2.0 final" }, { versionLabel: "   " }, { versionLabel: null }];
    const before = (await acme.console.get(base())).body.total;
    for (const versionId of badIds) {
      for (const label of labels) {
        const created = await acme.console.post(base(), { appId: acme.appId, title: "x", body: "", versionId, ...label });
        expect([versionId, label, created.status, created.body.code]).toEqual([versionId, label, 404, "version_not_found"]);
        const edited = await acme.console.put(`${base()}/${entry.id}`, { title: "changed", versionId, ...label });
        expect([versionId, label, edited.status, edited.body.code]).toEqual([versionId, label, 404, "version_not_found"]);
      }
    }
    expect((await acme.console.get(base())).body.total).toBe(before);
    expect((await acme.console.get(`${base()}/${entry.id}`)).body).toMatchObject({ title: "Versioned", versionId: own, versionLabel: "2.0" });

    // The app's own version, with a label, a blank label or none; no version at all.
    const post = async (extra: object) => (await acme.console.post(base(), { appId: acme.appId, title: "ok", body: "", ...extra })).body;
    expect(await post({ versionId: own, versionLabel: " 2.0 final " })).toMatchObject({ versionId: own, versionLabel: "2.0 final" });
    expect(await post({ versionId: own, versionLabel: "  " })).toMatchObject({ versionId: own, versionLabel: "2.0" });
    expect(await post({ versionId: null, versionLabel: "  " })).toMatchObject({ versionId: null, versionLabel: null });
    expect(await post({ versionLabel: "free text" })).toMatchObject({ versionId: null, versionLabel: "free text" });
    expect(await post({})).toMatchObject({ versionId: null, versionLabel: null });
    const put = async (extra: object) => (await acme.console.put(`${base()}/${entry.id}`, extra)).body;
    expect(await put({ versionId: own, versionLabel: "2.0.1" })).toMatchObject({ versionId: own, versionLabel: "2.0.1" });
    expect(await put({ versionLabel: "  " })).toMatchObject({ versionId: own, versionLabel: null });
    expect(await put({ versionId: own, versionLabel: null })).toMatchObject({ versionId: own, versionLabel: "2.0" });
    expect(await put({ versionId: null })).toMatchObject({ versionId: null, versionLabel: "2.0" });
  });
});
