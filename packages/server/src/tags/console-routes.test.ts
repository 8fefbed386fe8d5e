import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("console tags on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  const requests: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    for (const title of ["Dark mode", "Export to CSV", "Calendar sync"]) {
      const res = await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title });
      requests.push(res.body.id);
    }
  });
  afterAll(() => t.close());

  const tagsUrl = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/tags`;
  const bulkUrl = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/feature-requests/tags`;
  const tags = async () => (await acme.console.get(tagsUrl())).body.tags as Array<{ id: string; slug: string; name: string; visibility: string; requestCount: number; color: string | null }>;

  it("creates public and team-only tags, refuses a taken slug and bad bodies, and lists them by name", async () => {
    const ui = await acme.console.post(tagsUrl(), { name: "UI", color: "#ff0000" });
    expect(ui.status).toBe(201);
    expect(ui.body).toMatchObject({ name: "UI", slug: "ui", color: "#ff0000", visibility: "public", requestCount: 0 });
    expect((await acme.console.post(tagsUrl(), { name: "Enterprise ask", visibility: "team" })).body).toMatchObject({ slug: "enterprise-ask", visibility: "team" });
    expect((await acme.console.post(tagsUrl(), { name: "API" })).status).toBe(201);
    const taken = await acme.console.post(tagsUrl(), { name: "Other", slug: "ui" });
    expect([taken.status, taken.body.code]).toEqual([409, "slug_taken"]);
    for (const body of [{}, { name: "" }, { name: "x".repeat(41) }, { name: "A", color: "red" }, { name: "A", visibility: "secret" }]) {
      const res = await acme.console.post(tagsUrl(), body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, "validation_failed"]);
    }
    expect((await tags()).map((t) => t.name)).toEqual(["API", "Enterprise ask", "UI"]);
  });

  it("adds and removes tags in bulk, idempotently, with counts", async () => {
    const [api, enterprise, ui] = await tags();
    const res = await acme.console.post(bulkUrl(), { featureRequestIds: [...requests, "fr_00000000000000000000000000"], add: [ui!.id, enterprise!.id] });
    expect(res.body).toEqual({ added: 6, removed: 0 });
    expect((await acme.console.post(bulkUrl(), { featureRequestIds: requests, add: [ui!.id] })).body).toEqual({ added: 0, removed: 0 });
    expect((await acme.console.post(bulkUrl(), { featureRequestIds: [requests[0]], add: [api!.id], remove: [enterprise!.id] })).body).toEqual({ added: 1, removed: 1 });
    expect((await tags()).map((t) => [t.slug, t.requestCount])).toEqual([["api", 1], ["enterprise-ask", 2], ["ui", 3]]);
  });

  it("shows every tag on the console record and filters the console list by tags, all of them matching", async () => {
    const byslug = Object.fromEntries((await tags()).map((t) => [t.slug, t.id]));
    const list = async (query: string) =>
      ((await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?appId=${acme.appId}&${query}`)).body.requests as Array<{ title: string; tags: Array<{ slug: string; visibility: string }> }>)
        .map((r) => r.title)
        .sort();
    expect(await list(`tagId=${byslug["ui"]}`)).toEqual(["Calendar sync", "Dark mode", "Export to CSV"]);
    expect(await list(`tagId=${byslug["ui"]}&tagId=${byslug["enterprise-ask"]}`)).toEqual(["Calendar sync", "Export to CSV"]);
    expect(await list(`tagId=${byslug["api"]}&tagId=${byslug["enterprise-ask"]}`)).toEqual([]);
    const record = await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${requests[1]}`);
    expect(record.body.tags.map((t: { slug: string; visibility: string }) => [t.slug, t.visibility])).toEqual([["enterprise-ask", "team"], ["ui", "public"]]);
    // The public item shows the public tag only.
    const item = await t.app.inject({ url: `/api/v1/feature-requests/${requests[1]}?appKey=${acme.appKey}` });
    expect(item.json().tags).toEqual([{ name: "UI", slug: "ui", color: "#ff0000" }]);
  });

  it("refuses another app's tag with 404 and more than 10 tags on a request with 400, writing nothing", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other");
    const theirs = (await other.console.post(`/workspaces/${other.wsId}/apps/${other.appId}/tags`, { name: "Theirs" })).body.id as string;
    const before = await tags();
    const foreign = await acme.console.post(bulkUrl(), { featureRequestIds: requests, add: [theirs] });
    expect([foreign.status, foreign.body.code]).toEqual([404, "tag_not_found"]);
    const extra: string[] = [];
    for (let i = 0; i < 8; i++) extra.push((await acme.console.post(tagsUrl(), { name: `Extra ${i}` })).body.id);
    // Request 0 carries api + ui: 8 more makes 10, allowed; one more is refused whole.
    expect((await acme.console.post(bulkUrl(), { featureRequestIds: [requests[0]], add: extra })).body).toEqual({ added: 8, removed: 0 });
    const nine = await acme.console.post(tagsUrl(), { name: "Eleventh" });
    const refused = await acme.console.post(bulkUrl(), { featureRequestIds: requests, add: [nine.body.id] });
    expect([refused.status, refused.body.code, refused.body.details.limit]).toEqual([400, "too_many_tags", 10]);
    const after = await tags();
    expect(after.find((t) => t.slug === "eleventh")!.requestCount).toBe(0);
    expect(after.find((t) => t.slug === "ui")!.requestCount).toBe(before.find((t) => t.slug === "ui")!.requestCount);
  });

  it("renames and recolours a tag, and deleting it takes it off every request", async () => {
    const ui = (await tags()).find((t) => t.slug === "ui")!;
    const listed = async () => t.app.inject({ url: `/api/v1/feature-requests?appKey=${acme.appKey}&tag=ui` });
    // Public pages (cached, as the app's tags are) see every change at once.
    expect((await listed()).json().requests.flatMap((r: { tags: unknown[] }) => r.tags)).toContainEqual({ name: "UI", slug: "ui", color: "#ff0000" });
    await acme.console.patch(`/workspaces/${acme.wsId}/tags/${ui.id}`, { name: "Interface", color: null });
    const after = (await listed()).json().requests as Array<{ tags: Array<{ slug: string }> }>;
    expect(after).toHaveLength(3);
    expect(after.map((r) => r.tags.find((tag) => tag.slug === "ui"))).toEqual(Array(3).fill({ name: "Interface", slug: "ui", color: null }));
    const renamed = await acme.console.patch(`/workspaces/${acme.wsId}/tags/${ui.id}`, { visibility: "team" });
    expect(renamed.body).toMatchObject({ name: "Interface", slug: "ui", color: null, visibility: "team", requestCount: 3 });
    const hidden = await listed();
    expect([hidden.statusCode, hidden.json().code]).toEqual([400, "unknown_tag"]);
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/tags/${ui.id}`)).status).toBe(200);
    expect((await tags()).map((t) => t.slug)).not.toContain("ui");
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/tags/${ui.id}`)).status).toBe(404);
  });
});
