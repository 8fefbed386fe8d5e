import type { SegmentRule } from "@tidings/protocol";
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { recordStatements, sqlitePlan } from "@tidings/testing/statement-recorder";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createWorkspace } from "../workspaces/workspaces.js";
import { memberCount, memberPage } from "./members.js";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** How one statement reads `end_users` and `companies`. */
interface Step {
  table: string;
  /** The index it reads through, or `scan` for the whole table. */
  index: string;
  /** PostgreSQL only: rows looked at (returned plus filtered out), over every loop. */
  examined: number;
}

const COUNT = 100_000;
const COMPANIES = 1000;

/**
 * The seeded users, as the SQL below writes them: one in ten pays (the last digit 3), one in a
 * hundred is on the enterprise plan, one in five is in a company (20 users each), and one company
 * in fifty is on the enterprise plan.
 */
const seeded = (i: number) => ({
  id: `eu_${String(i).padStart(8, "0")}`,
  paying: i % 10 === 3,
  plan: i % 100 === 7 ? "enterprise" : i % 10 < 4 ? "pro" : "free",
  company: i % 5 === 0 ? Math.floor(i / 5) % COMPANIES : null,
});
const companyPlan = (j: number) => (j % 50 === 0 ? "enterprise" : "startup");

/** The rules the proofs cover, with the seeded users each holds. */
const RULES: Array<[string, SegmentRule, (u: ReturnType<typeof seeded>) => boolean, string]> = [
  ["paying users", { user: { isPaying: true } }, (u) => u.paying, "end_users_app_paying_idx"],
  ["a rare plan", { user: { plans: ["enterprise"] } }, (u) => u.plan === "enterprise", "end_users_app_plan_idx"],
  ["companies on a plan", { company: { plans: ["enterprise"] } }, (u) => u.company !== null && companyPlan(u.company) === "enterprise", "end_users_company_idx"],
  ["one company", { company: { ids: ["acct7"] } }, (u) => u.company === 7, "end_users_company_idx"],
  [
    "pro users of companies on a plan",
    { user: { plans: ["pro"] }, company: { plans: ["enterprise"] } },
    (u) => u.plan === "pro" && u.company !== null && companyPlan(u.company) === "enterprise",
    "end_users_company_idx",
  ],
];
const everyone = Array.from({ length: COUNT }, (_, i) => seeded(i));
const membersOf = (holds: (u: ReturnType<typeof seeded>) => boolean) => everyone.filter(holds).map((u) => u.id).reverse();

// A segment's members on an app of 100k end users, seeded by SQL: the member page and the count
// read the users through indexes (migrations 0031 and 0037), never the whole table. SQLite's
// planner goes by a query's shape, so the index it names is the proof; PostgreSQL's goes by
// costs and statistics (refreshed as autovacuum would), so what it did is counted: a page of
// paying users reads about as many as it shows, and nothing reads more than the members.
describe.each(testDialects())("plans of a segment's members on 100k end users, on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;

  beforeAll(async () => {
    t = await openTestDatabase(dialect, { timeQueries: true });
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(db, clock, workspace.id, { name: "Big" })).row.id;
    const pad = (n: ReturnType<typeof sql>) => sql`substr('0000000' || (${n}), length('0000000' || (${n})) - 7)`;
    const j = sql.ref("n.j");
    await sql`with recursive n(j) as (select 0 union all select j + 1 from n where j < ${COMPANIES - 1})
      insert into companies (id, app_id, external_id, name, mrr_cents, currency, plan, attributes, reported_at, created_at, updated_at)
      select 'co_' || ${pad(j)}, ${appId}, 'acct' || ${j}, 'Company ' || ${j}, ${j} * 100, 'USD',
        case when ${j} % 50 = 0 then 'enterprise' else 'startup' end, '{}', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      from n`.execute(db);
    const i = sql.ref("n.i");
    await sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${COUNT - 1})
      insert into end_users (id, app_id, token_hash, public_id, created_at, last_seen_at, is_paying, plan, mrr_cents, currency, company_id)
      select 'eu_' || ${pad(i)}, ${appId}, 'h' || ${i}, 'p' || ${i}, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z',
        case when ${i} % 10 = 3 then 1 else 0 end,
        case when ${i} % 100 = 7 then 'enterprise' when ${i} % 10 < 4 then 'pro' else 'free' end,
        case when ${i} % 10 = 3 then (${i} % 1000) * 100 else null end, 'USD',
        case when ${i} % 5 = 0 then 'co_' || ${pad(sql`(${i} / 5) % ${sql.lit(COMPANIES)}`)} else null end
      from n`.execute(db);
    // As autovacuum leaves tables after a bulk insert: vacuumed and analyzed (only these tables).
    if (dialect === "postgres") await sql`vacuum analyze end_users, companies`.execute(db);
  }, 300_000);
  afterAll(() => t.cleanup(), 120_000);

  /** Each statement `work` runs, planned: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN ANALYZE (rolled back). */
  async function plansOf(work: (db: TestDatabase["db"]["kysely"]) => Promise<unknown>): Promise<Array<{ sql: string; steps: Step[] }>> {
    const statements = await recordStatements(t.db, () => work(t.db.kysely));
    const out = [];
    for (const statement of statements) {
      if (dialect === "sqlite") {
        const steps = (await sqlitePlan(t.db.kysely, statement))
          .map((step) => /^(SCAN|SEARCH) (u|c)\b(.*)$/.exec(step))
          .filter((m) => m !== null)
          .map((m): Step => ({ table: m[2] === "u" ? "end_users" : "companies", index: m[1] === "SCAN" ? "scan" : (/INDEX (\w+)/.exec(m[3]!)?.[1] ?? "primary key"), examined: 0 }));
        out.push({ sql: statement.sql, steps });
        continue;
      }
      const steps = await t.db.kysely.transaction().execute(async (trx) => {
        const plan = await trx.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]));
        const found: Step[] = [];
        const indexes = (node: PlanNode): string[] => [...(node["Index Name"] === undefined ? [] : [node["Index Name"]]), ...(node.Plans ?? []).flatMap(indexes)];
        const walk = (node: PlanNode) => {
          const table = node["Relation Name"];
          if (table === "end_users" || table === "companies") {
            found.push({
              table,
              index: node["Node Type"] === "Seq Scan" ? "scan" : (node["Index Name"] ?? indexes(node).join("+")),
              examined: ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0)) * (node["Actual Loops"] ?? 1),
            });
          }
          if (node["Node Type"] !== "Bitmap Heap Scan") for (const child of node.Plans ?? []) walk(child);
        };
        walk(plan.rows[0]!["QUERY PLAN"][0]!.Plan);
        return found;
      });
      out.push({ sql: statement.sql, steps });
    }
    return out;
  }

  it("holds the members the rules describe, newest first", async () => {
    for (const [name, rule, holds] of RULES) {
      const expected = membersOf(holds);
      expect(await memberCount(t.db.kysely, appId, rule), name).toBe(expected.length);
      const page = await memberPage(t.db.kysely, appId, rule, { limit: 30 });
      expect(page.members.map((m) => m.id), name).toEqual(expected.slice(0, 30));
      if (expected.length > 30) {
        const next = await memberPage(t.db.kysely, appId, rule, { limit: 30, cursor: page.nextCursor! });
        expect(next.members.map((m) => m.id), name).toEqual(expected.slice(30, 60));
      }
    }
  });

  it("reads a page of members and their count through indexes, never the whole table", async () => {
    for (const [name, rule, holds, index] of RULES) {
      const members = membersOf(holds).length;
      const counted = await plansOf((db) => memberCount(db, appId, rule));
      const paged = await plansOf((db) => memberPage(db, appId, rule, { limit: 50 }));
      // The page's second statement reads the 50 shown by id.
      for (const statement of [...counted, ...paged]) {
        expect(statement.steps.length, `${name}: ${statement.sql}`).toBeGreaterThan(0);
        // (PostgreSQL rightly reads the thousand companies whole to join the page's 50 to them.)
        for (const step of statement.steps.filter((s) => dialect === "sqlite" || s.table === "end_users")) {
          expect(step.index, `${name}: ${step.table} in ${statement.sql}`).not.toBe("scan");
        }
      }
      // SQLite reads the users through the rule's own index, not only the app's (token) one.
      if (dialect === "sqlite") {
        for (const statement of [counted[0]!, paged[0]!]) {
          expect(statement.steps.filter((s) => s.table === "end_users").map((s) => s.index), `${name}: ${statement.sql}`).toEqual([index]);
        }
      }
      if (dialect === "postgres") {
        const users = (statements: typeof counted) => Math.max(...statements.flatMap((s) => s.steps.filter((step) => step.table === "end_users").map((step) => step.examined)));
        // A count looks at no more users than the rule holds (twice, for slack).
        expect(users(counted), name).toBeLessThanOrEqual(2 * members + 100);
        // A page reads the members through an index, or walks the users newest first until it
        // has found a page (PostgreSQL does so for a company rule): about 51 / (members / COUNT).
        expect(users(paged), name).toBeLessThanOrEqual(Math.max(2 * members + 100, (2 * 51 * COUNT) / members));
        // A page of paying users, the largest segment, reads about the 51 it asks for.
        if (name === "paying users") expect(users(paged), name).toBeLessThanOrEqual(2 * 51);
      }
    }
  });
});
