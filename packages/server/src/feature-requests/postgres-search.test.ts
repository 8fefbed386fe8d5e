import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { recordStatements } from "@tidings/testing/statement-recorder";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createWorkspace } from "../workspaces/workspaces.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";
import { listFeatureRequests, type ListQuery } from "./listing.js";
import { largeApps } from "./postgres-search.js";
import { searchTerms, searchText } from "../search/search-text.js";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/** The search statement a public search sends on `t`, as sent. */
async function searchStatement(t: TestDatabase, clock: FakeClock, q: ListQuery): Promise<CompiledQuery> {
  const statements = await recordStatements(t.db, () => listFeatureRequests(t.db.kysely, "postgres", clock, q));
  const found = statements.find((s) => s.sql.includes("feature_request_search"));
  if (found === undefined) throw new Error(`no search statement among ${statements.map((s) => s.sql).join("; ")}`);
  return found;
}

/** Whether `text` holds a word starting with each of `terms`, as a search matches it. */
const holds = (text: string, terms: string[]) => terms.every((term) => searchText(text).split(" ").some((word) => word.startsWith(term)));

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
    t = await openTestDatabase("postgres", { timeQueries: true });
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
    const statement = await searchStatement(t, clock, query(q, { sort }));
    expect(await searchReads(t.db.kysely, statement)).toEqual(THROUGH_INDEXES);
  });

  it("would fail if the index could not serve the search", async () => {
    const statement = await searchStatement(t, clock, query("dark mo"));
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

// Every app's requests are in one search table (migration 0024); each row also holds its app's key
// (0051). Apps here all use the same words, as an instance hosting many similar apps does.
describe.skipIf(!testDialects().includes("postgres"))("search of one app among many on PostgreSQL", () => {
  let t: TestDatabase;
  const clock = new FakeClock();
  const words = ["dark", "mode", "export", "sync", "calendar", "notifications", "widget", "theme"];
  let large: string;
  const small: string[] = [];
  const texts = new Map<string, { appId: string; all: string }>();

  beforeAll(async () => {
    t = await openTestDatabase("postgres", { timeQueries: true });
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "Hosted", slug: "hosted" }, null);
    const seed = async (name: string, count: number) => {
      const appId = (await createApp(t.db.kysely, clock, workspace.id, { name })).row.id;
      const inputs = Array.from({ length: count }, (_, i) => importedRequest(appId, `${words[i % 8]} ${words[(i * 3) % 8]} idea ${i}`, `About ${words[(i * 5 + 1) % 8]}`));
      for (let i = 0; i < inputs.length; i += 500) {
        clock.advance(1000);
        const rows = await createFeatureRequests(t.db.kysely, clock, "postgres", appId, inputs.slice(i, i + 500));
        for (const row of rows) texts.set(row.id, { appId, all: `${row.title} ${row.description}` });
      }
      return appId;
    };
    large = await seed("Large", 1500);
    for (let i = 0; i < 8; i++) small.push(await seed(`Small ${i}`, 40));
    await t.db.kysely.executeQuery(CompiledQuery.raw("analyze feature_requests"));
  });
  afterAll(() => t.cleanup());

  const query = (appId: string, q: string): ListQuery => ({ appId, viewerEndUserId: null, limit: 100, offset: 0, cursor: undefined, versionId: undefined, q, sort: "top" });
  const expected = (appId: string, q: string) => {
    const terms = searchTerms(q);
    return [...texts].filter(([, r]) => r.appId === appId && holds(r.all, terms)).map(([id]) => id);
  };

  /** The search's statement as sent, and how many rows its read of the search table gathered. */
  async function gathered(q: ListQuery): Promise<{ keys: unknown; rows: number }> {
    const statement = await searchStatement(t, clock, q);
    const plan = await t.db.kysely.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode & { "Actual Rows"?: number } }> }>(
      CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]),
    );
    const find = (node: PlanNode & { "Actual Rows"?: number }): number | undefined =>
      node["Relation Name"] === "feature_request_search" ? node["Actual Rows"] : (node.Plans ?? []).map(find).find((n) => n !== undefined);
    return { keys: statement.parameters.find((p) => Array.isArray(p)), rows: find(plan.rows[0]!["QUERY PLAN"][0]!.Plan)! };
  }

  it("tells the large apps from PostgreSQL's statistics", async () => {
    expect([...(await largeApps(t.db.kysely))]).toEqual([large]);
  });

  it.each(["dark mo", "sync 1", "widget", "theme ex"])("searches a small app for %j through its own key: the index gathers its matches alone, and finds each", async (q) => {
    for (const appId of small) {
      const page = await listFeatureRequests(t.db.kysely, "postgres", clock, query(appId, q));
      expect(new Set(page.requests.map((r) => r.id)), q).toEqual(new Set(expected(appId, q)));
      expect(page.total).toBe(expected(appId, q).length);
    }
    const { keys, rows } = await gathered(query(small[0]!, q));
    // Without the key the index gathers every app's matches: the large app's alone outnumber a small app's rows.
    expect(expected(large, q).length).toBeGreaterThan(40);
    expect(rows).toBe(expected(small[0]!, q).length);
    expect(keys).toContain(`@${small[0]}`);
  });

  it("searches the large app without its key, with the same answers", async () => {
    for (const q of ["dark mo", "sync 1"]) {
      const ids: string[] = [];
      let page = await listFeatureRequests(t.db.kysely, "postgres", clock, query(large, q));
      ids.push(...page.requests.map((r) => r.id));
      expect(page.total, q).toBe(expected(large, q).length);
      while (page.nextCursor !== null) {
        page = await listFeatureRequests(t.db.kysely, "postgres", clock, { ...query(large, q), cursor: page.nextCursor });
        ids.push(...page.requests.map((r) => r.id));
      }
      expect(ids, q).toHaveLength(expected(large, q).length);
      expect(new Set(ids), q).toEqual(new Set(expected(large, q)));
      const { keys } = await gathered(query(large, q));
      expect(keys).not.toContain(`@${large}`);
    }
  });
});
