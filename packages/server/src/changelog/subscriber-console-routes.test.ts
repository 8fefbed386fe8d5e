import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient, createWorkspaceWithApp, expectOffsetBounds } from "@tidings/testing/console-client";
import { subscriptionRow } from "@tidings/testing/subscriptions";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { csvCell } from "./subscriber-console-routes.js";

describe.each(testDialects())("console: changelog subscribers on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  const ids: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect, { demo: false });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    const rows = [
      ["ada@example.com", "confirmed"],
      ["=cmd@example.com", "confirmed"],
      ["bob@example.com", "pending"],
      ["cy@example.com", "unsubscribed"],
    ] as const;
    for (const [i, [email, status]] of rows.entries()) {
      const at = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
      const row = subscriptionRow(i, acme.appId, email, status, at);
      ids.push(row.id);
      await t.database.db.kysely.insertInto("emailSubscriptions").values(row).execute();
    }
  });
  afterAll(() => t.close());
  const base = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/subscribers`;

  it("lists subscribers newest first, paginated and filtered by status and address", async () => {
    const page = await acme.console.get(`${base()}?limit=2`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(4);
    expect(page.body.subscribers.map((s: { email: string }) => s.email)).toEqual(["cy@example.com", "bob@example.com"]);
    const next = await acme.console.get(`${base()}?limit=2&offset=2`);
    expect(next.body.subscribers.map((s: { email: string }) => s.email)).toEqual(["=cmd@example.com", "ada@example.com"]);
    const confirmed = await acme.console.get(`${base()}?status=confirmed`);
    expect(confirmed.body.total).toBe(2);
    expect((await acme.console.get(`${base()}?q=BOB`)).body.subscribers).toHaveLength(1);
    expect((await acme.console.get(`${base()}?q=%25`)).body.total).toBe(0);
    expect((await acme.console.get(`${base()}?q=_`)).body.total).toBe(0);
    expect((await acme.console.get(`${base()}?q=%3Dcmd`)).body.total).toBe(1);
    expect((await acme.console.get(`${base()}?status=bogus`)).status).toBe(400);
  });

  it("refuses offsets that are not finite or past 1 000 000 with 400, and pages up to it", async () => {
    await expectOffsetBounds(acme.console, base(), "subscribers");
  });

  it("exports CSV with defused formula cells", async () => {
    const res = await t.app.inject({ method: "GET", url: `/api/v1/console${base()}/export`, headers: t.admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename=".*subscribers\.csv"$/);
    const lines = res.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe("email,status,subscribed_at,confirmed_at,unsubscribed_at");
    expect(lines).toHaveLength(5);
    expect(lines[2]).toMatch(/^"'=cmd@example\.com","confirmed"/);
    expect(csvCell('a "b"')).toBe('"a ""b"""');
    expect(csvCell(null)).toBe('""');
  });

  it("hides other workspaces' subscribers and lets members remove but not strangers", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other-co");
    expect((await other.console.get(`/workspaces/${other.wsId}/apps/${acme.appId}/subscribers`)).status).toBe(404);
    expect((await other.console.delete(`/workspaces/${other.wsId}/subscribers/${ids[2]}`)).status).toBe(404);

    const add = await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "mia@example.com", role: "member" });
    const token = await acme.console.post(`/users/${add.body.member.userId}/tokens`, { name: "mia" });
    const mia = consoleClient(t.app, `Bearer ${token.body.token}`);
    expect((await mia.delete(`/workspaces/${acme.wsId}/subscribers/${ids[2]}`)).body).toEqual({ success: true });
    expect((await mia.delete(`/workspaces/${acme.wsId}/subscribers/${ids[2]}`)).status).toBe(404);
    expect((await acme.console.get(base())).body.total).toBe(3);
  });
});
