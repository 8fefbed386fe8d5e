import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { StatementRecorder } from "@tidings/testing/statement-recorder";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createWorkspace } from "../workspaces/workspaces.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";
import { listFeatureRequests, rankOnSqlite, type ListQuery } from "./listing.js";
import { appPrefixes, searchTerms, searchText } from "./search-text.js";

// The SQLite-only ranking has two strategies (small result sets read whole, large ones paged
// tier by tier in the index); on the same board they must answer the same pages.
describe("search ranking on SQLite", () => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  const texts = new Map<string, { title: string; all: string; approved: boolean }>();

  beforeAll(async () => {
    t = await openTestDatabase("sqlite");
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Ranked" })).row.id;
    const words = ["dark", "mode", "export", "sync", "calendar"];
    const inputs = Array.from({ length: 90 }, (_, i) =>
      importedRequest(appId, `${words[i % 5]} ${words[(i * 2) % 5]} idea ${i}`, `Also about ${words[(i * 3 + 1) % 5]} and ${words[(i + 2) % 5]} (${i % 7})`, i % 11 !== 0),
    );
    // Words the in-memory title check and FTS5's tokenizer must see alike.
    for (const [title, description] of [
      ["Naïve CAFÉ mode", "Straße export"],
      ["Export für Ärzte", "café au lait, naïve"],
      ["Mode-switch: dark/light", "Ｆｕｌｌ-width ＥＸＰＯＲＴ"],
    ] as const) {
      inputs.push(importedRequest(appId, title, description));
    }
    const rows = await createFeatureRequests(t.db.kysely, clock, "sqlite", appId, inputs);
    rows.forEach((row, i) => texts.set(row.id, { title: row.title, all: `${row.title} ${row.description}`, approved: inputs[i]!.approved }));
  });
  afterAll(() => t.cleanup());

  it("indexes words under 27-character app prefixes, the length the prefix indexes of migrations 0006 and 0007 assume", () => {
    expect(appPrefixes(appId).visible).toHaveLength(27);
    expect(appPrefixes(appId).hidden).toHaveLength(27);
  });

  const queries = ["idea", "dark", "dark mo", "sync cal", "1", "idea 4", "export dark", "nothing here", "cafe", "naive mode", "stra", "arzte", "export", "full"];

  it.each(queries)("answers %j alike whichever way it reads the index", async (q) => {
    const terms = searchTerms(q);
    for (const offset of [0, 3, 10, 17, 40, 100]) {
      const page = { offset, limit: 9 };
      const whole = await rankOnSqlite(t.db.kysely, { appId }, terms, page);
      const paged = await rankOnSqlite(t.db.kysely, { appId }, terms, page, 0);
      expect(paged, `offset ${offset}`).toEqual(whole);
      // A window smaller than the matches: pages inside its part of either tier come from it.
      const windowed = await rankOnSqlite(t.db.kysely, { appId }, terms, page, 20);
      expect(windowed, `offset ${offset}, window 20`).toEqual(whole);
    }
  });

  it("ranks requests whose title holds every word before the others, and counts every match", async () => {
    const terms = ["mode", "export"];
    const holds = (text: string) => terms.every((term) => searchText(text).split(" ").some((word) => word.startsWith(term)));
    const expected = [...texts].filter(([, r]) => r.approved && holds(r.all));
    const { ids, total } = await rankOnSqlite(t.db.kysely, { appId }, terms, { offset: 0, limit: 200 });
    expect(total).toBe(expected.length);
    expect(new Set(ids)).toEqual(new Set(expected.map(([id]) => id)));
    const inTitle = ids.map((id) => holds(texts.get(id)!.title));
    const firstOther = inTitle.indexOf(false);
    // Both tiers are there, the title one first.
    expect(firstOther).toBeGreaterThan(0);
    expect(inTitle.slice(firstOther)).not.toContain(true);
  });
});

// Equally relevant matches (the same tier) come in one order on both engines: most votes first,
// then newest. SQLite used to put the most recently indexed first and PostgreSQL the most voted.
describe.each(testDialects())("the order of equally relevant search matches on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Ordered" })).row.id;
    // Oldest first; titles holding "sync" are the first tier, descriptions holding it the second.
    const board: [name: string, title: string, description: string, votes: number][] = [
      ["old-popular", "Sync calendar", "Both ways", 7],
      ["old-second-tier", "Offline mode", "Then sync later", 9],
      ["tied-older", "Sync contacts", "From the phone", 5],
      ["tied-newer", "Sync photos", "Full size", 5],
      ["new-second-tier", "Widgets", "With sync status", 0],
      ["newest-unvoted", "Sync settings", "Across devices", 0],
    ];
    for (const [name, title, description, votes] of board) {
      clock.advance(60_000);
      const [row] = await createFeatureRequests(t.db.kysely, clock, dialect, appId, [importedRequest(appId, title, description)]);
      await t.db.kysely.updateTable("featureRequests").set({ voteCount: votes }).where("id", "=", row!.id).execute();
      ids.set(row!.id, name);
    }
  });
  afterAll(() => t.cleanup());

  it("ranks title matches, then the others, each by votes and then newest, whatever the sort asked", async () => {
    for (const sort of ["newest", "top"] as const) {
      const page = await listFeatureRequests(t.db.kysely, dialect, clock, {
        appId,
        viewerEndUserId: null,
        limit: 50,
        offset: 0,
        cursor: undefined,
        versionId: undefined,
        q: "sync",
        sort,
      });
      expect(page.requests.map((r) => ids.get(r.id)), sort).toEqual(["old-popular", "tied-newer", "tied-older", "newest-unvoted", "old-second-tier", "new-second-tier"]);
      expect(page.total).toBe(6);
    }
  });

  it.skipIf(dialect !== "sqlite")("pages a large result in SQL in the same order as a small one in memory", async () => {
    for (const offset of [0, 1, 3, 4, 5]) {
      const small = await rankOnSqlite(t.db.kysely, { appId }, ["sync"], { offset, limit: 2 });
      expect(await rankOnSqlite(t.db.kysely, { appId }, ["sync"], { offset, limit: 2 }, 0), `offset ${offset}`).toEqual(small);
    }
  });
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

// PostgreSQL answers public searches from the GIN index of word prefixes (migration 0014). The
// plan is checked as the planner chooses it on a board of a few thousand requests with its
// statistics up to date (no planner setting forced): with no usable index it scans the table,
// and this fails.
describe.skipIf(!testDialects().includes("postgres"))("search on PostgreSQL", () => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  const texts = new Map<string, { title: string; all: string; approved: boolean }>();
  const words = ["dark", "mode", "export", "sync", "calendar", "notifications", "notificator", "widget"];

  beforeAll(async () => {
    t = await openTestDatabase("postgres");
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Searched" })).row.id;
    const inputs = Array.from({ length: 3000 }, (_, i) =>
      importedRequest(appId, `${words[i % 8]} ${words[(i * 3) % 8]} idea ${i}`, `Also about ${words[(i * 5 + 1) % 8]} (${i % 7})`, i % 10 !== 0),
    );
    for (let i = 0; i < inputs.length; i += 500) {
      clock.advance(1000);
      const rows = await createFeatureRequests(t.db.kysely, clock, "postgres", appId, inputs.slice(i, i + 500));
      rows.forEach((row, k) => texts.set(row.id, { title: row.title, all: `${row.title} ${row.description}`, approved: inputs[i + k]!.approved }));
    }
    await t.db.kysely.executeQuery(CompiledQuery.raw("analyze feature_requests"));
  });
  afterAll(() => t.cleanup());

  const query = (q: string, extra: Partial<ListQuery> = {}): ListQuery => ({
    appId,
    viewerEndUserId: null,
    limit: 10,
    offset: 0,
    cursor: undefined,
    versionId: undefined,
    q,
    sort: "top",
    ...extra,
  });

  /** The search statement a public search sends, as sent. */
  async function searchStatement(q: ListQuery): Promise<CompiledQuery> {
    const recorder = new StatementRecorder((args) => t.db.kysely.getExecutor().compileQuery(args.node, args.queryId));
    await listFeatureRequests(t.db.kysely.withPlugin(recorder), "postgres", clock, q);
    const found = recorder.queries.find((s) => s.sql.includes("feature_request_search"));
    if (found === undefined) throw new Error(`no search statement among ${recorder.queries.map((s) => s.sql).join("; ")}`);
    return found;
  }

  /** How the plan reads each table: `table: index` for each step, `table: scan` for a scan of the whole table. */
  async function reads(db: typeof t.db.kysely, statement: CompiledQuery): Promise<string[]> {
    const plan = await db.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(CompiledQuery.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]));
    const found: string[] = [];
    // A bitmap scan's indexes are the bitmap index scans below it.
    const indexes = (node: PlanNode): string[] => [...(node["Index Name"] === undefined ? [] : [node["Index Name"]]), ...(node.Plans ?? []).flatMap(indexes)];
    const walk = (node: PlanNode) => {
      const table = node["Relation Name"];
      if (table !== undefined) {
        const how = node["Node Type"] === "Seq Scan" ? ["scan"] : node["Node Type"] === "Bitmap Heap Scan" ? indexes(node) : [node["Index Name"] ?? node["Node Type"]];
        found.push(...how.map((index) => `${table}: ${index}`));
      }
      if (node["Node Type"] !== "Bitmap Heap Scan") for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan.rows[0]!["QUERY PLAN"][0]!.Plan);
    return found;
  }

  /** The words through their GIN index (migration 0024), each match's request by its key. */
  const THROUGH_INDEXES = ["feature_request_search: feature_request_search_prefix_idx", "feature_requests: feature_requests_pkey"];
  /** {@link reads} of the search's two tables, in a stable order (`trending` also reads recent votes). */
  const searchReads = async (db: typeof t.db.kysely, statement: CompiledQuery) =>
    (await reads(db, statement)).filter((r) => r.startsWith("feature_request_search:") || r.startsWith("feature_requests:")).sort();

  it.each([
    ["dark mo", "top"],
    ["sync 12", "newest"],
    ["notifications 12", "trending"],
    ["w", "top"],
  ] as const)("finds %j (%s) through the word-prefix index, never by scanning the table", async (q, sort) => {
    const statement = await searchStatement(query(q, { sort }));
    expect(await searchReads(t.db.kysely, statement)).toEqual(THROUGH_INDEXES);
  });

  it("would fail if the index could not serve the search", async () => {
    const statement = await searchStatement(query("dark mo"));
    // Dropped in a transaction that is rolled back: the same statement then scans the table.
    await t.db.kysely
      .transaction()
      .execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw("drop index feature_request_search_prefix_idx"));
        expect(await searchReads(trx, statement)).toEqual(["feature_request_search: scan", "feature_requests: feature_requests_pkey"]);
        throw new Error("rolled back");
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== "rolled back") throw error;
      });
    expect(await searchReads(t.db.kysely, statement)).toEqual(THROUGH_INDEXES);
  });

  it("ranks requests whose title holds every word first, counts every public match, and matches words longer than the indexed prefixes exactly", async () => {
    const holds = (text: string, terms: string[]) => terms.every((term) => searchText(text).split(" ").some((word) => word.startsWith(term)));
    for (const q of ["mode export", "notifications", "notificat", "calendar 1", "dark"]) {
      const terms = searchTerms(q);
      const expected = [...texts].filter(([, r]) => r.approved && holds(r.all, terms)).map(([id]) => id);
      const ids: string[] = [];
      let page = await listFeatureRequests(t.db.kysely, "postgres", clock, query(q, { limit: 100 }));
      ids.push(...page.requests.map((r) => r.id));
      expect(page.total, q).toBe(expected.length);
      while (page.nextCursor !== null) {
        page = await listFeatureRequests(t.db.kysely, "postgres", clock, query(q, { limit: 100, cursor: page.nextCursor }));
        ids.push(...page.requests.map((r) => r.id));
      }
      expect(new Set(ids), q).toEqual(new Set(expected));
      expect(ids, q).toHaveLength(expected.length);
      const inTitle = ids.map((id) => holds(texts.get(id)!.title, terms));
      const firstOther = inTitle.indexOf(false);
      if (firstOther >= 0) expect(inTitle.slice(firstOther), q).not.toContain(true);
    }
  });
});
