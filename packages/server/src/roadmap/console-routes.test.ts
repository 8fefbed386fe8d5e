import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("console roadmap on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(() => t.close());

  const publicColumns = async () =>
    (await t.app.inject({ url: `/api/v1/public/columns/${acme.appKey}` })).json().columns as Array<{ id: string; slug: string; name: string; position: number }>;

  it("reorders every column and renames and recolours one", async () => {
    const columns = await publicColumns();
    const reversed = columns.map((c) => c.id).reverse();
    const res = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/columns/reorder`, { columnIds: reversed });
    expect(res.status).toBe(200);
    expect((await publicColumns()).map((c) => c.id)).toEqual(reversed);
    expect((await publicColumns()).map((c) => c.position)).toEqual([0, 1, 2, 3]);

    const renamed = await acme.console.put(`/workspaces/${acme.wsId}/columns/${reversed[0]}`, { name: "Done", color: "#00ff00" });
    expect(renamed.body).toMatchObject({ name: "Done", color: "#00ff00", slug: "shipped" });
    const moved = await acme.console.put(`/workspaces/${acme.wsId}/columns/${reversed[0]}`, { position: 3 });
    expect(moved.body.position).toBe(3);
    expect((await publicColumns()).at(-1)!.name).toBe("Done");
  });

  it("refuses an order that does not list each column exactly once, keeping the old order", async () => {
    const before = (await publicColumns()).map((c) => c.id);
    for (const columnIds of [before.slice(1), [...before, before[0]!], [...before.slice(1), "col_00000000000000000000000000"]]) {
      const res = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/columns/reorder`, { columnIds });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("invalid_column_order");
    }
    expect((await publicColumns()).map((c) => c.id)).toEqual(before);
  });

  it("deletes an ordinary column and closes the gap, but never a system column", async () => {
    const columns = await publicColumns();
    const planned = columns.find((c) => c.slug === "planned")!;
    const review = columns.find((c) => c.slug === "under-review")!;
    const refused = await acme.console.delete(`/workspaces/${acme.wsId}/columns/${review.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("system_column");
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/columns/${planned.id}`)).status).toBe(200);
    const after = await publicColumns();
    expect(after.map((c) => c.slug)).not.toContain("planned");
    expect(after.map((c) => c.position)).toEqual([0, 1, 2]);
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/columns/${planned.id}`)).status).toBe(404);
  });

  it("creates, releases, edits and deletes versions", async () => {
    const base = `/workspaces/${acme.wsId}`;
    const v = await acme.console.post(`${base}/apps/${acme.appId}/versions`, { label: "3.0", description: "Big one" });
    expect(v.status).toBe(201);
    expect(v.body).toMatchObject({ label: "3.0", released: false, releasedAt: null, description: "Big one" });
    const publicLabels = async () =>
      (await t.app.inject({ url: `/api/v1/public/versions/${acme.appKey}` })).json().versions.map((x: { label: string }) => x.label);
    expect(await publicLabels()).not.toContain("3.0");
    t.clock.advance(60_000);
    const released = await acme.console.put(`${base}/versions/${v.body.id}`, { released: true, label: "3.0.0" });
    expect(released.body).toMatchObject({ released: true, label: "3.0.0", releasedAt: t.clock.now().toISOString() });
    expect(await publicLabels()).toContain("3.0.0");
    const all = await acme.console.get(`${base}/apps/${acme.appId}/versions`);
    expect(all.body.versions.map((x: { label: string }) => x.label)).toContain("3.0.0");
    expect((await acme.console.delete(`${base}/versions/${v.body.id}`)).status).toBe(200);
    expect(await publicLabels()).not.toContain("3.0.0");
    const bad = await acme.console.post(`${base}/apps/${acme.appId}/versions`, { label: "" });
    expect(bad.status).toBe(400);
  });

  it("stores a release date in UTC ISO whatever RFC 3339 spelling came, and refuses a leap second", async () => {
    const base = `/workspaces/${acme.wsId}`;
    const v = await acme.console.post(`${base}/apps/${acme.appId}/versions`, { label: "4.0", releasedAt: "2025-01-01 09:30:00+02:00" });
    expect(v.body.releasedAt).toBe("2025-01-01T07:30:00.000Z");
    const edited = await acme.console.put(`${base}/versions/${v.body.id}`, { releasedAt: "2025-03-01t00:00:00z" });
    expect(edited.body.releasedAt).toBe("2025-03-01T00:00:00.000Z");
    const leap = await acme.console.put(`${base}/versions/${v.body.id}`, { releasedAt: "2016-12-31T23:59:60Z" });
    expect({ status: leap.status, code: leap.body.code }).toEqual({ status: 400, code: "validation_failed" });
  });

  it("does not let one workspace touch another's columns", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other-co");
    const column = (await publicColumns())[1]!;
    const res = await other.console.put(`/workspaces/${other.wsId}/columns/${column.id}`, { name: "Hijacked" });
    expect(res.status).toBe(404);
    expect((await publicColumns())[1]!.name).toBe(column.name);
  });
});
