import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CompiledQuery, sql } from "kysely";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { genericPlans, recordStatements } from "@tidings/testing/statement-recorder";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { userHash } from "../users/identity.js";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;
type PlanNode = { "Relation Name"?: string; "Shared Hit Blocks": number; "Shared Read Blocks": number; Plans?: PlanNode[] };
interface Listed {
  id: string;
  title: string;
  hasVoted: boolean;
  isOwnRequest: boolean;
}

// Many signed-in readers opening the same page at once: on PostgreSQL their lookups share one
// statement (page-viewers.ts), and each must still see only what is theirs.
describe.each(testDialects())("pages read by many signed-in users at once on %s", (dialect) => {
  let t: TestApp;
  let one: Workspace;
  let other: Workspace;
  const requests = new Map<Workspace, string[]>();

  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS, demo: false });
    one = await createWorkspaceWithApp(t.app, t.admin.authorization, "one");
    other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other");
    for (const ws of [one, other]) {
      // Proposals of callers the host does not vouch for wait for review.
      await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { moderationPolicy: "anonymous" });
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title: `Idea ${i}` })).body.id);
      requests.set(ws, ids);
    }
  });
  afterAll(() => t.close());

  const signed = (ws: Workspace, token: string) => ({ "x-user-token": token, "x-user-hash": userHash(ws.signingSecret, token) });
  const vote = async (ws: Workspace, id: string, token: string) => {
    const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: signed(ws, token), payload: {} });
    expect(res.statusCode, res.body).toBe(200);
  };
  const page = async (ws: Workspace, headers: Record<string, string>) => {
    const res = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}&limit=50`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().requests as Listed[];
  };
  const votedTitles = (listed: Listed[]) => listed.filter((r) => r.hasVoted).map((r) => r.title).sort();

  it("shows each reader their own votes and pending request, strangers and the other app's readers none", async () => {
    const ids = requests.get(one)!;
    // Reader i votes on ideas i and i+1 (mod 6); "shared" votes on idea 5 of the first app only.
    for (let i = 0; i < 12; i++) {
      await vote(one, ids[i % 6]!, `reader-${i}`);
      await vote(one, ids[(i + 1) % 6]!, `reader-${i}`);
    }
    await vote(one, ids[5]!, "shared");
    const proposed = await t.app.inject({
      method: "POST",
      url: "/api/v1/feature-requests",
      headers: { "x-user-token": "pat" },
      payload: { appKey: one.appKey, title: "Pat's own idea" },
    });
    expect(proposed.json().pending).toBe(true);

    const readers = [
      ...Array.from({ length: 12 }, (_, i) => ({ ws: one, headers: signed(one, `reader-${i}`), voted: [`Idea ${i % 6}`, `Idea ${(i + 1) % 6}`].sort() })),
      ...Array.from({ length: 6 }, (_, i) => ({ ws: one, headers: signed(one, `stranger-${i}`), voted: [] as string[] })),
      { ws: one, headers: signed(one, "shared"), voted: ["Idea 5"] },
      { ws: other, headers: signed(other, "shared"), voted: [] as string[] },
      { ws: other, headers: signed(other, "reader-0"), voted: [] as string[] },
    ];
    const [pats, ...pages] = await Promise.all([page(one, { "x-user-token": "pat" }), ...readers.map((r) => page(r.ws, r.headers))]);
    pages.forEach((listed, i) => {
      expect(votedTitles(listed), `reader ${i}`).toEqual(readers[i]!.voted);
      expect(listed.some((r) => r.isOwnRequest), `reader ${i}`).toBe(false);
      expect(listed.map((r) => r.title), `reader ${i}`).not.toContain("Pat's own idea");
    });
    // Pat's page lists the request waiting for review, marked as theirs.
    expect(pats.filter((r) => r.isOwnRequest).map((r) => r.title)).toEqual(["Pat's own idea"]);
  });

  it("answers a reader's page with the votes they cast a moment before", async () => {
    const ids = requests.get(other)!;
    for (let round = 0; round < 3; round++) {
      await vote(other, ids[round]!, "quick");
      const seen = await Promise.all([page(other, signed(other, "quick")), page(other, signed(other, "slow"))]);
      expect(seen.map(votedTitles)).toEqual([ids.slice(0, round + 1).map((_, i) => `Idea ${i}`), []]);
    }
  });

  it("lists each of many callers reading at once their own pending requests and no one else's", async () => {
    const callers = Array.from({ length: 10 }, (_, i) => `proposer-${i}`);
    const theirs = (token: string) => [`${token}'s idea 0`, `${token}'s idea 1`];
    for (const token of callers) {
      for (const title of theirs(token)) {
        const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": token }, payload: { appKey: other.appKey, title } });
        expect(res.json().pending, res.body).toBe(true);
      }
    }
    for (const sort of ["newest", "top", "trending"]) {
      const pages = await Promise.all(
        callers.map(async (token) => {
          const res = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${other.appKey}&sort=${sort}&limit=50`, headers: { "x-user-token": token } });
          expect(res.statusCode, res.body).toBe(200);
          return res.json().requests as Listed[];
        }),
      );
      pages.forEach((listed, i) => {
        const proposals = listed.filter((r) => r.title.includes("'s idea"));
        expect(proposals.map((r) => r.title).sort(), `${sort}, caller ${i}`).toEqual(theirs(callers[i]!));
        expect(proposals.every((r) => r.isOwnRequest), `${sort}, caller ${i}`).toBe(true);
        expect(listed.filter((r) => r.title.startsWith("Idea ")), `${sort}, caller ${i}`).toHaveLength(6);
      });
    }
  });
});

// On PostgreSQL a signed-in caller's window of pending requests is read in the statement that
// looks the caller up: their page, once the shared page is cached, waits for one round trip,
// whatever they have waiting for review.
describe.runIf(testDialects().includes("postgres"))("a caller's pending requests read with the caller on postgres", () => {
  let t: TestApp;
  let ws: Workspace;
  const publicIds: string[] = [];
  beforeAll(async () => {
    t = await createTestApp("postgres", { rateLimits: GENEROUS_RATE_LIMITS, demo: false }, { timeQueries: true });
    ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "window");
    await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { moderationPolicy: "anonymous" });
    for (let i = 0; i < 4; i++) {
      t.clock.advance(1000);
      const id = (await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title: `Public ${i}` })).body.id as string;
      publicIds.push(id);
      const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": `fan-${i}` }, payload: {} });
      expect(res.statusCode, res.body).toBe(200);
    }
    // The readers of a board in use, and the statistics of one: the planner's estimates follow them.
    await sql`insert into end_users (id, app_id, token_hash, public_id, created_at, last_seen_at)
      select 'reader-' || n, ${ws.appId}, 'hash-' || n, 'public-' || n, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      from generate_series(1, 5000) as n`.execute(t.database.db.kysely);
    await sql`analyze end_users, feature_requests, feature_request_votes`.execute(t.database.db.kysely);
  });
  afterAll(() => t.close());

  const read = async (sort: string, token: string) => {
    const res = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}&sort=${sort}&limit=3`, headers: { "x-user-token": token } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { requests: Array<Listed & { voteCount: number }>; total: number; hasMore: boolean };
  };

  it("answers newest, top and trending pages from the caller's statement alone, their own requests merged in", async () => {
    for (let i = 0; i < 2; i++) {
      t.clock.advance(1000);
      const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "sam" }, payload: { appKey: ws.appKey, title: `Sam's ${i}` } });
      expect(res.json().pending, res.body).toBe(true);
    }
    // Sam voted on one of the public requests, and on none of their own.
    expect((await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${publicIds[0]}/vote`, headers: { "x-user-token": "sam" }, payload: {} })).statusCode).toBe(200);
    const expected = {
      newest: { titles: ["Sam's 1", "Sam's 0", "Public 3"], total: 6 },
      top: { titles: ["Public 0", "Public 3", "Public 2"], total: 6 },
      trending: { titles: ["Public 0", "Public 3", "Public 2"], total: 6 },
    };
    for (const [sort, want] of Object.entries(expected)) {
      await read(sort, "fan-1"); // the shared page, and for trending its ranking, now cached
      const statements = await recordStatements(t.database.db, async () => {
        const page = await read(sort, "sam");
        expect(page.requests.map((r) => r.title), sort).toEqual(want.titles);
        expect(page.total, sort).toBe(want.total);
        expect(page.hasMore, sort).toBe(true);
        expect(page.requests.filter((r) => r.isOwnRequest).map((r) => r.title), sort).toEqual(want.titles.filter((title) => title.startsWith("Sam")));
        expect(page.requests.filter((r) => r.hasVoted).map((r) => r.title), sort).toEqual(want.titles.filter((title) => title === "Public 0"));
      });
      // The caller, their votes on the page and their window: one statement.
      expect(statements.map((s) => s.sql.slice(0, 40)), sort).toHaveLength(1);
    }
  });

  it("is planned once per connection, not on every page", async () => {
    const [statement] = await recordStatements(t.database.db, () => read("top", "sam"));
    expect(await genericPlans(t.database.db.kysely, statement!)).toBeGreaterThanOrEqual(3);
  });

  // Last: its votes are written straight to the table, without the requests' counts.
  it("reads a reader's votes on a page without reading everyone else's", async () => {
    const [statement] = await recordStatements(t.database.db, () => read("top", "sam"));
    /** The index pages the statement read from the votes table, as PostgreSQL reports them. */
    const votePages = async () => {
      const plan = await t.database.db.kysely.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
        CompiledQuery.raw(`explain (analyze, buffers, format json) ${statement!.sql}`, [...statement!.parameters]),
      );
      let pages = 0;
      const walk = (node: PlanNode) => {
        if (node["Relation Name"] === "feature_request_votes") pages += node["Shared Hit Blocks"] + node["Shared Read Blocks"];
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(plan.rows[0]!["QUERY PLAN"][0]!.Plan);
      return pages;
    };
    // Every reader of the board votes for every request on Sam's page: 20,000 votes in its range,
    // about 180 pages of an index keyed by request. Sam's few take a page or two of one keyed by
    // voter, and each lookup passes its root and a branch.
    await sql`insert into feature_request_votes (feature_request_id, end_user_id, created_at)
      select fr.id, eu.id, '2026-01-01T00:00:00.000Z' from end_users eu cross join feature_requests fr
      where eu.app_id = ${ws.appId} and eu.id like 'reader-%' and fr.id in (${sql.join(publicIds)})`.execute(t.database.db.kysely);
    await sql`analyze feature_request_votes`.execute(t.database.db.kysely);
    expect(await votePages()).toBeLessThan(20);
  });
});
