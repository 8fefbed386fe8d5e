import type { FeatureRequestSort } from "@tidings/protocol";
import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { recordStatements, sqlitePlan } from "@tidings/testing/statement-recorder";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { ensureEndUser } from "../users/identity.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";
import { listFeatureRequests, type ListQuery } from "./listing.js";
import { OWN_PENDING_SHOWN } from "./own-pending.js";
import { appPrefixes } from "../search/search-text.js";

/** Indexes a listing may read requests through: each reads only listed rows, or one row by id. */
const BOUNDED_ACCESS = new Set([
  "sqlite_autoindex_feature_requests_1",
  "feature_requests_pkey",
  "feature_requests_listed_newest_idx",
  "feature_requests_own_pending_newest_idx",
]);

interface Access {
  /** The index a plan step reads `feature_requests` through, or `scan` for the whole table. */
  index: string;
  /** PostgreSQL only: the rows that step looked at (returned plus filtered out), over its loops. */
  examined: number;
  /** Whether it answered from the index alone (SQLite: a covering index; PostgreSQL: an index-only scan). */
  indexOnly: boolean;
}

/** Every page of a listing or search, following its cursors: the rows in order and each page's total. */
async function allPages(t: TestDatabase, clock: FakeClock, dialect: TestDatabase["db"]["dialect"], q: ListQuery) {
  const requests: Awaited<ReturnType<typeof listFeatureRequests>>["requests"] = [];
  const totals = new Set<number>();
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await listFeatureRequests(t.db.kysely, dialect, clock, { ...q, cursor });
    requests.push(...page.requests);
    totals.add(page.total);
    if (page.nextCursor === null) return { ids: requests.map((r) => r.id), requests, totals: [...totals] };
    cursor = page.nextCursor;
  }
  throw new Error("the listing never ended");
}

// A viewer's own pending requests (their newest OWN_PENDING_SHOWN) are merged into the public
// `newest` and `top` orders. A page reads at most that window of them, however many the viewer has
// waiting (a caller who keeps proposing made every page of theirs read, count and search them all,
// and the pending proposals of everyone made every page of anyone walk past them).
describe.each(testDialects())("a viewer's own pending requests in the listing, on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  let viewer: string;
  let other: string;
  /** Every request made, as the listing orders them. */
  const made: Array<{ id: string; createdAt: string; voteCount: number; moderation: "approved" | "pending"; requester: string | null }> = [];

  /** Requests of one kind; a few share each tick of the clock (ties go by id). */
  async function make(count: number, moderation: "approved" | "pending", requester: string | null, votes: (i: number) => number = () => 0) {
    const perTick = count > 200 ? 100 : 2;
    const byVotes = new Map<number, string[]>();
    for (let i = 0; i < count; i += perTick) {
      clock.advance(1000);
      const inputs = Array.from({ length: Math.min(perTick, count - i) }, (_, k) => ({
        ...importedRequest(appId, `Idea ${made.length + k}`, "Body", moderation === "approved"),
        requesterEndUserId: requester,
      }));
      for (const row of await createFeatureRequests(t.db.kysely, clock, dialect, appId, inputs)) {
        const voteCount = votes(made.length);
        byVotes.set(voteCount, [...(byVotes.get(voteCount) ?? []), row.id]);
        made.push({ id: row.id, createdAt: row.createdAt, voteCount, moderation, requester });
      }
    }
    for (const [voteCount, ids] of byVotes) {
      if (voteCount > 0) await t.db.kysely.updateTable("featureRequests").set({ voteCount }).where("id", "in", ids).execute();
    }
  }

  const query = (sort: FeatureRequestSort, who: string | null, extra: Partial<ListQuery> = {}): ListQuery => ({
    appId,
    viewerEndUserId: who,
    limit: 7,
    offset: 0,
    cursor: undefined,
    versionId: undefined,
    q: undefined,
    sort,
    ...extra,
  });

  /** The ids of the pending requests `who` sees: their newest OWN_PENDING_SHOWN. */
  function shownPending(who: string | null): Set<string> {
    const theirs = made.filter((r) => r.moderation === "pending" && who !== null && r.requester === who);
    theirs.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
    return new Set(theirs.slice(0, OWN_PENDING_SHOWN).map((r) => r.id));
  }

  /** What `who` should see, in `sort` order (`newest` or `top`). */
  function expected(sort: "newest" | "top", who: string | null): string[] {
    const own = shownPending(who);
    return made
      .filter((r) => r.moderation === "approved" || own.has(r.id))
      .sort((a, b) => (sort === "top" ? b.voteCount - a.voteCount : 0) || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0) || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
  }

  /** Every page of a listing, following its cursors; each row says whether it is the viewer's own. */
  async function everyPage(q: ListQuery) {
    const listed = await allPages(t, clock, dialect, q);
    for (const r of listed.requests) expect(r.isOwnRequest, r.id).toBe(q.viewerEndUserId !== null && made.find((m) => m.id === r.id)?.requester === q.viewerEndUserId);
    return listed;
  }

  /** Every statement a listing sends. */
  async function statements(q: ListQuery): Promise<CompiledQuery[]> {
    return recordStatements(t.db, () => listFeatureRequests(t.db.kysely, dialect, clock, q));
  }

  /** How each statement of a viewer's listing reads `feature_requests`. */
  async function accesses(q: ListQuery): Promise<Array<{ sql: string; aggregate: boolean; steps: Access[] }>> {
    const out = [];
    for (const query of await statements(q)) {
      if (!query.sql.includes(`"feature_requests"`)) continue;
      const aggregate = /^select count\(\*\)/.test(query.sql);
      if (dialect === "sqlite") {
        const steps = (await sqlitePlan(t.db.kysely, query))
          .filter((step) => /^(SCAN|SEARCH) (fr|feature_requests)\b/.test(step))
          .map((step) => ({ index: /INDEX (\w+)/.exec(step)?.[1] ?? "scan", examined: 0, indexOnly: step.includes("COVERING INDEX") }));
        out.push({ sql: query.sql, aggregate, steps });
      } else {
        // Index access forced, so the plan shows which index can serve each step, and the rows
        // each step looks at are counted by EXPLAIN ANALYZE (on a table of a few thousand rows,
        // reading it whole is cheaper than looking up a page's fifty ids, unlike on a real board).
        // With the table's statistics up to date, as a running database has them.
        await t.db.kysely.executeQuery(CompiledQuery.raw("analyze feature_requests, feature_request_votes"));
        const steps = await t.db.kysely.transaction().execute(async (trx) => {
          await trx.executeQuery(CompiledQuery.raw("set local enable_seqscan = off"));
          const plan = await trx.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
            CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
          );
          const found: Access[] = [];
          const walk = (node: PlanNode) => {
            if (node["Relation Name"] === "feature_requests") {
              const loops = node["Actual Loops"] ?? 1;
              found.push({
                index: node["Index Name"] ?? "scan",
                examined: ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * loops,
                indexOnly: node["Node Type"] === "Index Only Scan",
              });
            }
            for (const child of node.Plans ?? []) walk(child);
          };
          walk(plan.rows[0]!["QUERY PLAN"][0]!.Plan);
          return found;
        });
        out.push({ sql: query.sql, aggregate, steps });
      }
    }
    return out;
  }

  beforeAll(async () => {
    t = await openTestDatabase(dialect, { timeQueries: true });
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Board" })).row.id;
    viewer = (await ensureEndUser(t.db.kysely, clock, appId, "viewer")).id;
    other = (await ensureEndUser(t.db.kysely, clock, appId, "other")).id;
    // Interleaved in time and in votes: approved requests, the viewer's pending ones (a few with
    // votes, as a request sent back to review keeps them) and someone else's.
    for (let round = 0; round < 6; round++) {
      await make(6, "approved", null, (i) => (i % 3 === 0 ? (i % 5) + 1 : 0));
      await make(3, "pending", viewer, (i) => (i % 4 === 0 ? 2 : 0));
      await make(2, "pending", other);
    }
  });
  afterAll(() => t.cleanup());

  it.each(["newest", "top"] as const)("pages through %s with the viewer's pending requests in their place, each once", async (sort) => {
    const mine = await everyPage(query(sort, viewer));
    expect(mine.ids).toEqual(expected(sort, viewer));
    expect(mine.totals).toEqual([expected(sort, viewer).length]);
    // Offsets land in the same merged order.
    const page = await listFeatureRequests(t.db.kysely, dialect, clock, query(sort, viewer, { offset: 9 }));
    expect(page.requests.map((r) => r.id)).toEqual(expected(sort, viewer).slice(9, 16));
    // Nobody else sees them; the other requester sees their own instead.
    expect((await everyPage(query(sort, null))).ids).toEqual(expected(sort, null));
    expect((await everyPage(query(sort, other))).ids).toEqual(expected(sort, other));
  });

  it("lists every request once on trending pages, the viewer's pending ones included", async () => {
    // Recent votes on a few approved requests put them first.
    const hot = made.filter((r) => r.moderation === "approved").slice(3, 6).map((r) => r.id);
    await t.db.kysely
      .insertInto("featureRequestVotes")
      .values(hot.map((featureRequestId, i) => ({ featureRequestId, endUserId: i === 0 ? other : viewer, shipNotifyEmail: null, createdAt: clock.now().toISOString() })))
      .execute();
    const mine = await everyPage(query("trending", viewer));
    expect(new Set(mine.ids.slice(0, 3))).toEqual(new Set(hot));
    expect([...mine.ids].sort()).toEqual([...expected("top", viewer)].sort());
    expect(mine.totals).toEqual([expected("top", viewer).length]);
  });

  it("reads only listed requests, or one by id, whatever the viewer has waiting; reads at most the window of their own", async () => {
    // A board of realistic size, where one viewer's requests are a small part of the app's (the
    // planners choose by such proportions); the viewer has more pending than their window shows.
    await make(1500, "approved", null, (i) => i % 7);
    await make(40, "pending", viewer);
    expect(made.filter((r) => r.requester === viewer).length).toBeGreaterThan(OWN_PENDING_SHOWN);
    const before = new Map<string, Awaited<ReturnType<typeof accesses>>>();
    for (const sort of ["newest", "top", "trending"] as const) before.set(sort, await accesses(query(sort, viewer)));
    // Many more pending requests, newer than everything listed and without votes: where a page
    // of `newest` or the end of `top` would walk past them.
    await make(80, "pending", viewer);
    await make(120, "pending", other);
    for (const sort of ["newest", "top", "trending"] as const) {
      const after = await accesses(query(sort, viewer));
      for (const statement of after) {
        for (const step of statement.steps) {
          // The window of the viewer's own is read from its index alone.
          if (statement.sql.includes(`"requester_end_user_id" = `)) expect(step.indexOnly, `${sort}: ${statement.sql}`).toBe(true);
          // SQLite's planner goes by the query's shape, so its choice of index is the proof.
          if (dialect === "sqlite" && !statement.aggregate) expect(BOUNDED_ACCESS.has(step.index), `${sort}: ${step.index} in ${statement.sql}`).toBe(true);
        }
      }
      if (dialect === "postgres") {
        // PostgreSQL's goes by costs, so the proof is what it did: no step looked at one row more,
        // counting the viewer's own included.
        const examined = (list: Awaited<ReturnType<typeof accesses>>) => list.flatMap((s) => s.steps.map((step) => step.examined));
        expect(examined(after), sort).toEqual(examined(before.get(sort)!));
      }
    }
    // And the pages are still right.
    expect((await everyPage(query("newest", viewer, { limit: 100 }))).ids).toEqual(expected("newest", viewer));
    expect((await everyPage(query("top", viewer, { limit: 100 }))).ids).toEqual(expected("top", viewer));
  });

  it("searches the viewer's own pending requests and the public ones, never anyone else's", async () => {
    // Titles are "Idea <n>": the requests numbered 19, 190-199 and 1900-1999 match, the last
    // ones pending requests made below: four of the viewer's (their 19 is older than their window
    // by now), then someone else's.
    const search = query("top", viewer, { q: "idea 19" });
    await make(1904 - made.length, "pending", viewer);
    const before = await accesses(search);
    // Many more pending requests of someone else, 96 of them matching.
    await make(150, "pending", other);
    expect(made.filter((r, n) => r.requester === other && n >= 1900 && n < 2000)).toHaveLength(96);
    const after = await accesses(search);
    // No statement matches the app's hidden words (the index of everyone's pending requests).
    const hidden = appPrefixes(appId).hidden;
    for (const statement of await statements(search)) {
      expect(`${statement.sql} ${JSON.stringify(statement.parameters)}`, statement.sql).not.toContain(hidden);
    }
    for (const statement of after) {
      for (const step of statement.steps) {
        if (dialect === "sqlite" && !statement.aggregate) expect(BOUNDED_ACCESS.has(step.index), `${step.index} in ${statement.sql}`).toBe(true);
      }
    }
    if (dialect === "postgres") {
      const examined = (list: Awaited<ReturnType<typeof accesses>>) => list.flatMap((s) => s.steps.map((step) => step.examined));
      expect(examined(after)).toEqual(examined(before));
    }
    // And the viewer finds theirs first, the public matches after them, and nobody else's.
    const matching = (who: string) => made.filter((r, n) => /^19/.test(String(n)) && (r.moderation === "approved" || shownPending(who).has(r.id))).map((r) => r.id);
    const page = await listFeatureRequests(t.db.kysely, dialect, clock, { ...search, limit: 100 });
    expect(new Set(page.requests.map((r) => r.id))).toEqual(new Set(matching(viewer)));
    expect(page.total).toBe(matching(viewer).length);
    const own = page.requests.filter((r) => made.find((m) => m.id === r.id)?.moderation === "pending");
    expect(own.length).toBeGreaterThan(0);
    expect(page.requests.slice(0, own.length)).toEqual(own);
  });
});

// A search by a viewer with pending requests of their own: their matching pending requests first
// (all words in the title first, then newest first), then exactly the public search's results.
describe.each(testDialects())("a viewer's own pending requests in a search, on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  let viewer: string;
  let other: string;
  const id: Record<string, string> = {};

  async function make(title: string, body: string, approved: boolean, requester: string | null) {
    clock.advance(1000);
    const [row] = await createFeatureRequests(t.db.kysely, clock, dialect, appId, [{ ...importedRequest(appId, title, body, approved), requesterEndUserId: requester }]);
    id[title] = row!.id;
  }

  const search = (who: string | null, q: string, extra: Partial<ListQuery> = {}): ListQuery => ({
    appId,
    viewerEndUserId: who,
    limit: 2,
    offset: 0,
    cursor: undefined,
    versionId: undefined,
    q,
    sort: "newest",
    ...extra,
  });

  const everyPage = (q: ListQuery) => allPages(t, clock, dialect, q);

  beforeAll(async () => {
    t = await openTestDatabase(dialect, { timeQueries: true });
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Board" })).row.id;
    viewer = (await ensureEndUser(t.db.kysely, clock, appId, "viewer")).id;
    other = (await ensureEndUser(t.db.kysely, clock, appId, "other")).id;
    await make("Dark mode", "Easier on the eyes", true, null);
    await make("Sidebar in dark", "Please", false, viewer);
    await make("Theme switch", "A dark one", true, null);
    await make("Dark dock", "Mine", false, other);
    await make("Sidebar width", "Darker borders", false, viewer);
    await make("Darkroom export", "Photos", true, viewer);
    await make("Calendar", "Nothing to see", false, viewer);
    await make("Dark icons", "Icons", true, null);
  });
  afterAll(() => t.cleanup());

  it.each(["newest", "top", "trending"] as const)("lists the viewer's matches first, then the public results, on %s pages", async (sort) => {
    const anonymous = await everyPage(search(null, "dark", { sort }));
    expect(new Set(anonymous.ids)).toEqual(new Set([id["Dark mode"], id["Theme switch"], id["Darkroom export"], id["Dark icons"]]));
    const expected = [id["Sidebar in dark"], id["Sidebar width"], ...anonymous.ids];
    const mine = await everyPage(search(viewer, "dark", { sort }));
    expect(mine.ids).toEqual(expected);
    expect(mine.totals).toEqual([expected.length]);
    for (const offset of [1, 2, 3, 5]) {
      const page = await listFeatureRequests(t.db.kysely, dialect, clock, search(viewer, "dark", { sort, offset }));
      expect(page.requests.map((r) => r.id), `offset ${offset}`).toEqual(expected.slice(offset, offset + 2));
      expect(page.hasMore).toBe(offset + 2 < expected.length);
    }
    // The other requester sees their own instead; nobody sees another's.
    expect((await everyPage(search(other, "dark", { sort }))).ids).toEqual([id["Dark dock"], ...anonymous.ids]);
    // Every word must match, as a prefix.
    expect((await everyPage(search(viewer, "sid dar", { sort }))).ids).toEqual([id["Sidebar in dark"], id["Sidebar width"]]);
    expect((await everyPage(search(viewer, "sidebar calendar", { sort }))).ids).toEqual([]);
  });

  it("marks the viewer's requests, pending or public, as their own", async () => {
    const page = await listFeatureRequests(t.db.kysely, dialect, clock, search(viewer, "dark", { limit: 10 }));
    const own = page.requests.filter((r) => r.isOwnRequest).map((r) => r.id);
    expect(new Set(own)).toEqual(new Set([id["Sidebar in dark"], id["Sidebar width"], id["Darkroom export"]]));
  });
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}
