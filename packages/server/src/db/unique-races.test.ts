import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

/** Dozens of requests at once on a busy machine. */
const SLOW = 60_000;

/** How many requests of each burst run at once. */
const BURST = 12;

/** Answers of `times` copies of `send`, all sent at once. */
function burst<T>(times: number, send: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: times }, (_, i) => send(i)));
}

/** How many answers had each status (and code, when they failed). */
function tally(answers: readonly { status: number; body: unknown }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { status, body } of answers) {
    const code = status >= 400 ? ` ${(body as { code?: string } | undefined)?.code ?? "?"}` : "";
    out[`${status}${code}`] = (out[`${status}${code}`] ?? 0) + 1;
  }
  return out;
}

// Requests that pass a route's "is it taken?" check at the same time and then both write. On
// PostgreSQL `app.inject` runs them on parallel pool connections, so each check can pass before
// either insert commits; the unique index then decides. On SQLite the one connection runs each
// transaction whole, so the checks see the earlier writes: the same outcomes, without the race.
describe.each(testDialects())("concurrent writes of the same unique key on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS, demo: false });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    // Opens the pool's connections now: on a cold pool the first burst queues on one connection.
    await burst(10, () => sql`select 1`.execute(t.database.db.kysely));
  });
  afterAll(() => t.close());

  const endUsers = async () => (await t.database.db.kysely.selectFrom("endUsers").select("id").where("appId", "=", acme.appId).execute()).length;
  const rows = async (table: "workspaces" | "apps" | "boardColumns", column: "slug", value: string) =>
    (await t.database.db.kysely.selectFrom(table).select("id").where(column, "=", value).execute()).length;

  it("creates one app for a slug sent twelve times at once; the others get 409 slug_taken", async () => {
    const answers = await burst(BURST, (i) => acme.console.post(`/workspaces/${acme.wsId}/apps`, { name: `Racer ${i}`, slug: "racer" }));
    expect(tally(answers)).toEqual({ "201": 1, "409 slug_taken": BURST - 1 });
    const apps = await t.database.db.kysely.selectFrom("apps").select("id").where("workspaceId", "=", acme.wsId).where("slug", "=", "racer").execute();
    expect(apps).toHaveLength(1);
    // The losers' default columns were rolled back with them.
    const columns = await t.database.db.kysely.selectFrom("boardColumns").select("appId").distinct().execute();
    const appIds = await t.database.db.kysely.selectFrom("apps").select("id").execute();
    expect(columns.map((c) => c.appId).sort()).toEqual(appIds.map((a) => a.id).sort());
  }, SLOW);

  it("gives each of twelve apps with one name, created at once without a slug, a slug of its own", async () => {
    const answers = await burst(BURST, () => acme.console.post(`/workspaces/${acme.wsId}/apps`, { name: "Twin Notes" }));
    expect(tally(answers)).toEqual({ "201": BURST });
    const apps = await t.database.db.kysely.selectFrom("apps").select("slug").where("workspaceId", "=", acme.wsId).where("name", "=", "Twin Notes").execute();
    expect(new Set(apps.map((a) => a.slug)).size).toBe(BURST);
  }, SLOW);

  it("creates one roadmap column for a slug sent twelve times at once; the others get 409 slug_taken", async () => {
    const answers = await burst(BURST, (i) =>
      acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/columns`, { name: `Beta ${i}`, slug: "beta" }),
    );
    expect(tally(answers)).toEqual({ "201": 1, "409 slug_taken": BURST - 1 });
    expect(await rows("boardColumns", "slug", "beta")).toBe(1);
  }, SLOW);

  it("renames one app to a slug that twelve renames ask for at once; the others get 409 slug_taken", async () => {
    const ids: string[] = [];
    for (let i = 0; i < BURST; i++) ids.push((await acme.console.post(`/workspaces/${acme.wsId}/apps`, { name: `Rename ${i}` })).body.appId);
    const answers = await burst(BURST, (i) => acme.console.put(`/workspaces/${acme.wsId}/apps/${ids[i]!}`, { slug: "renamed" }));
    expect(tally(answers)).toEqual({ "200": 1, "409 slug_taken": BURST - 1 });
    expect(await rows("apps", "slug", "renamed")).toBe(1);
  }, SLOW);

  it("adds a new member sent twelve times at once once, as the sequential path does", async () => {
    const answers = await burst(BURST, () => acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "Dana@Example.com", role: "member" }));
    expect(tally(answers)).toEqual({ "201": BURST });
    const db = t.database.db.kysely;
    const users = await db.selectFrom("consoleUsers").select("id").where("email", "=", "dana@example.com").execute();
    expect(users).toHaveLength(1);
    const memberships = await db.selectFrom("memberships").select("id").where("userId", "=", users[0]!.id).execute();
    expect(memberships).toHaveLength(1);
  }, SLOW);

  it("mints one end user for a new token whose first twenty requests of every kind arrive at once", async () => {
    const before = await endUsers();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title: `Burst target ${i}` })).body.id);
    const send = (token: string, i: number) => {
      const headers = { "x-user-token": token };
      const id = ids[i % ids.length]!;
      switch (i % 5) {
        case 0:
          return t.app.inject({ method: "POST", url: "/api/v1/feedback", headers, payload: { appKey: acme.appKey, title: `Feedback ${i}` } });
        case 1:
          return t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers, payload: { appKey: acme.appKey, title: `Proposal ${i}` } });
        case 2:
          return t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers, payload: {} });
        case 3:
          return t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/comments`, headers, payload: { body: `Comment ${i}` } });
        default:
          return t.app.inject({ method: "PUT", url: `/api/v1/public/apps/${acme.appKey}/user`, headers, payload: { currency: "eur" } });
      }
    };
    // Three new tokens, one after the other: each race is short, and every kind of write can win it.
    for (const token of ["new-token-1", "new-token-2", "new-token-3"]) {
      const answers = (await burst(20, (i) => send(token, i))).map((res) => ({ status: res.statusCode, body: res.json() as unknown }));
      expect(answers.filter((a) => a.status >= 300)).toEqual([]);
    }
    expect(await endUsers()).toBe(before + 3);
  }, SLOW);

  it("answers every proposal and feedback of a new token sent at once, in either order of their locks", async () => {
    const before = await endUsers();
    // Both write the end user and take a quota slot; taken in two orders, they deadlocked.
    for (const token of ["mixed-token-1", "mixed-token-2", "mixed-token-3"]) {
      const headers = { "x-user-token": token };
      const answers = await burst(10, (i) =>
        t.app.inject({
          method: "POST",
          url: i % 2 === 0 ? "/api/v1/feedback" : "/api/v1/feature-requests",
          headers,
          payload: { appKey: acme.appKey, title: `Mixed ${i}` },
        }),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array.from({ length: 10 }, () => 201));
    }
    expect(await endUsers()).toBe(before + 3);
  }, SLOW);

  it("records one subscription and queues one confirmation mail for an address subscribed twelve times at once", async () => {
    const answers = (
      await burst(BURST, () =>
        t.app.inject({ method: "POST", url: `/api/v1/public/apps/${acme.appKey}/changelog/subscribe`, payload: { email: "Fan@Example.com" } }),
      )
    ).map((res) => ({ status: res.statusCode, body: res.json() as unknown }));
    expect(tally(answers)).toEqual({ "201": BURST });
    const db = t.database.db.kysely;
    const subs = await db.selectFrom("emailSubscriptions").select("id").where("appId", "=", acme.appId).execute();
    expect(subs).toHaveLength(1);
    const mails = await db.selectFrom("jobs").select("id").where("kind", "=", "mail").where("refId", "=", subs[0]!.id).execute();
    expect(mails).toHaveLength(1);
  }, SLOW);

  it("creates one workspace for a slug sent twelve times at once; the others get 409 slug_taken", async () => {
    const answers = await burst(BURST, (i) => acme.console.post("/workspaces", { name: `Race ${i}`, slug: "race" }));
    expect(tally(answers)).toEqual({ "201": 1, "409 slug_taken": BURST - 1 });
    expect(await rows("workspaces", "slug", "race")).toBe(1);
    const winner = answers.find((a) => a.status === 201)!.body.workspace.id as string;
    expect((await acme.console.get(`/workspaces/${winner}`)).body.slug).toBe("race");
  }, SLOW);
});
