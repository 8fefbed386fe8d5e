import type { SegmentRule } from "@tidings/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createApp } from "../apps/apps.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { memberCount, memberPage } from "./members.js";
import { checkedRule } from "./rule.js";

interface Company {
  id: string;
  externalId: string;
  plan: string | null;
  mrrCents: number | null;
  currency: string;
  attributes: Record<string, string | number | boolean | null>;
}
interface User {
  id: string;
  plan: string | null;
  isPaying: 0 | 1 | null;
  mrrCents: number | null;
  currency: string | null;
  companyId: string | null;
}

const COMPANIES: Company[] = [
  { id: "co_1", externalId: "acme", plan: "enterprise", mrrCents: 100_000, currency: "USD", attributes: { region: "eu", seats: 40, trial: true } },
  { id: "co_2", externalId: "globex", plan: null, mrrCents: null, currency: "USD", attributes: { region: "us", seats: "40" } },
  { id: "co_3", externalId: "initech", plan: "startup", mrrCents: 5000, currency: "EUR", attributes: { trial: false, seats: 40.5, region: null } },
  { id: "co_4", externalId: "umbrella", plan: "enterprise", mrrCents: 0, currency: "USD", attributes: {} },
];

/** Every combination of the attributes rules look at, so each condition both holds and fails somewhere. */
function population(): User[] {
  const users: User[] = [];
  for (const plan of [null, "free", "pro"])
    for (const isPaying of [null, 0, 1] as const)
      for (const [mrrCents, currency] of [[null, null], [0, "USD"], [5000, "USD"], [5000, "EUR"], [100_000, "USD"]] as const)
        for (const companyId of [null, ...COMPANIES.map((c) => c.id)]) users.push({ id: `eu_${String(users.length).padStart(4, "0")}`, plan, isPaying, mrrCents, currency, companyId });
  return users;
}

const inRange = (cents: number | null, currency: string | null, range: { min?: number; max?: number; currency: string } | undefined) =>
  range === undefined ||
  (cents !== null && currency === range.currency && (range.min === undefined || cents >= Math.round(range.min * 100)) && (range.max === undefined || cents <= Math.round(range.max * 100)));

/** The rule's meaning, in plain code: what docs/segments.md says it holds. */
function holds(rule: SegmentRule, user: User): boolean {
  const { user: u = {}, company: c } = rule;
  if (u.plans !== undefined && (user.plan === null || !u.plans.includes(user.plan))) return false;
  if (u.isPaying !== undefined && user.isPaying !== (u.isPaying ? 1 : 0)) return false;
  if (!inRange(user.mrrCents, user.currency, u.mrr)) return false;
  if (c === undefined || Object.keys(c).length === 0) return true;
  const company = COMPANIES.find((co) => co.id === user.companyId);
  if (company === undefined) return false;
  if (c.ids !== undefined && !c.ids.includes(company.externalId)) return false;
  if (c.plans !== undefined && (company.plan === null || !c.plans.includes(company.plan))) return false;
  if (!inRange(company.mrrCents, company.currency, c.mrr)) return false;
  return (c.attributes ?? []).every(({ key, in: values }) => Object.hasOwn(company.attributes, key) && values.some((v) => v === company.attributes[key]));
}

const some = <T>(values: readonly T[]) => fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: values.length });
const range = fc.record({ min: fc.constantFrom(0, 50, 1000), max: fc.constantFrom(0, 50, 1000, 2000) }, { requiredKeys: [] }).chain((r) =>
  fc.constantFrom("USD", "EUR").map((currency) => ({ ...r, ...(r.min !== undefined && r.max !== undefined && r.min > r.max ? { max: r.min } : {}), currency })),
);
const attribute = fc.record({
  key: fc.constantFrom("region", "seats", "trial", "missing"),
  in: some<string | number | boolean>(["eu", "us", 40, "40", 40.5, true, false, 1, 0]),
});
const rules: fc.Arbitrary<SegmentRule> = fc.record(
  {
    user: fc.record({ plans: some(["free", "pro", "enterprise"]), isPaying: fc.boolean(), mrr: range }, { requiredKeys: [] }),
    company: fc.record(
      { ids: some(["acme", "globex", "initech", "umbrella", "nobody"]), plans: some(["enterprise", "startup"]), mrr: range, attributes: fc.array(attribute, { minLength: 1, maxLength: 3 }) },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

// The SQL a rule becomes holds exactly the users its documented meaning does, on each engine, so
// SQLite and PostgreSQL (JSON read by json_extract on one, jsonb containment on the other) agree.
describe.each(testDialects())("segment rules as SQL on %s", (dialect) => {
  let t: TestDatabase;
  let appId: string;
  const users = population();

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const db = t.db.kysely;
    const clock = new FakeClock();
    const { workspace } = await createWorkspace(db, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(db, clock, workspace.id, { name: "Rules" })).row.id;
    const at = clock.now().toISOString();
    await db
      .insertInto("companies")
      .values(COMPANIES.map((c) => ({ ...c, appId, name: null, attributes: JSON.stringify(c.attributes), reportedAt: 0, createdAt: at, updatedAt: at })))
      .execute();
    await db
      .insertInto("endUsers")
      .values(users.map((u) => ({ ...u, appId, tokenHash: `h${u.id}`, publicId: `p${u.id}`, createdAt: at, lastSeenAt: at })))
      .execute();
  });
  afterAll(() => t.cleanup());

  it("holds the users the rule's meaning holds", async () => {
    await fc.assert(
      fc.asyncProperty(rules, async (raw) => {
        const rule = checkedRule(raw);
        const expected = users.filter((u) => holds(rule, u)).map((u) => u.id).reverse();
        const page = await memberPage(t.db.kysely, appId, rule, { limit: 500 });
        expect(page.members.map((m) => m.id)).toEqual(expected);
        expect(await memberCount(t.db.kysely, appId, rule)).toBe(expected.length);
      }),
      { numRuns: 300 },
    );
  });
});
