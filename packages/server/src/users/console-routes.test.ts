import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp, expectOffsetBounds } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("console: end users on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { demo: false });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    const users = [
      { isPaying: 1 as const, plan: "pro", mrrCents: 1999, currency: "EUR", seen: 3 },
      { isPaying: 0 as const, plan: "free", mrrCents: 0, currency: null, seen: 1 },
      { isPaying: null, plan: null, mrrCents: null, currency: null, seen: 2 },
    ];
    for (const [i, u] of users.entries()) {
      const created = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
      await t.database.db.kysely
        .insertInto("endUsers")
        .values({
          id: `eu_${String(i).padStart(26, "0")}`,
          appId: acme.appId,
          tokenHash: `hash-${i}`,
          publicId: `u_${String(i).padStart(32, "0")}`,
          createdAt: created,
          lastSeenAt: new Date(Date.UTC(2026, 1, u.seen)).toISOString(),
          isPaying: u.isPaying,
          plan: u.plan,
          mrrCents: u.mrrCents,
          currency: u.currency,
          displayName: i === 0 ? "Ada" : null,
          attributesUpdatedAt: u.plan === null ? null : created,
        })
        .execute();
    }
  });
  afterAll(() => t.close());
  const base = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/end-users`;

  it("lists end users by last activity with their attributes and MRR in currency units", async () => {
    const res = await acme.console.get(base());
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.users.map((u: { publicId: string }) => u.publicId.slice(-1))).toEqual(["0", "2", "1"]);
    expect(res.body.users[0]).toMatchObject({ displayName: "Ada", isPaying: true, plan: "pro", mrr: 19.99, currency: "EUR", voteCount: 0 });
    expect(res.body.users[1]).toMatchObject({ isPaying: null, plan: null, mrr: null });
    expect(res.body.users[2]).toMatchObject({ isPaying: false, mrr: 0 });
  });

  it("paginates, sorts by MRR or age and keeps payers only", async () => {
    const page = await acme.console.get(`${base()}?limit=1&offset=1&sort=newest`);
    expect(page.body).toMatchObject({ total: 3 });
    expect(page.body.users.map((u: { publicId: string }) => u.publicId.slice(-1))).toEqual(["1"]);
    const mrr = await acme.console.get(`${base()}?sort=mrr`);
    expect(mrr.body.users.map((u: { mrr: number | null }) => u.mrr)).toEqual([19.99, 0, null]);
    const payers = await acme.console.get(`${base()}?payer=only`);
    expect(payers.body.total).toBe(1);
    expect((await acme.console.get(`${base()}?limit=0`)).status).toBe(400);
  });

  it("refuses offsets that are not finite or past 1 000 000 with 400, and pages up to it", async () => {
    await expectOffsetBounds(acme.console, base(), "users");
  });

  it("answers 404 for another workspace's app", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other-co");
    expect((await other.console.get(`/workspaces/${other.wsId}/apps/${acme.appId}/end-users`)).status).toBe(404);
  });
});
