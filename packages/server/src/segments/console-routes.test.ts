import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { malformedBodyField, parseCompanyReport } from "../companies/company-report.js";
import { writeAttributes, type AttributeWrite } from "../users/attributes.js";
import { ensureEndUser } from "../users/identity.js";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;

/**
 * Five end users as their host reported them: alice and bob at Acme (enterprise, 5,000 USD, 40
 * seats as a number), carol at Globex (startup, 300 USD, "40" seats as a string, on trial), dave
 * without a company, erin with nothing reported.
 */
const PEOPLE: Record<string, Omit<AttributeWrite, "company"> & { company?: Record<string, unknown> }> = {
  alice: { isPaying: true, plan: "pro", mrr: 100, currency: "USD", company: { id: "acme", name: "Acme", plan: "enterprise", mrr: 5000, currency: "USD", attributes: { region: "eu", seats: 40, trial: false } } },
  bob: { isPaying: false, plan: "free", company: { id: "acme" } },
  carol: { isPaying: true, plan: "pro", mrr: 50, currency: "EUR", company: { id: "globex", name: "Globex", plan: "startup", mrr: 300, currency: "USD", attributes: { region: "us", seats: "40", trial: true } } },
  dave: { isPaying: true, plan: "enterprise", mrr: 2000, currency: "USD" },
  erin: {},
};

describe.each(testDialects())("console segments on %s", (dialect) => {
  let t: TestApp;
  let acme: Workspace;
  /** End user id → name. */
  const names = new Map<string, string>();
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    const db = t.database.db.kysely;
    for (const [name, { company, ...own }] of Object.entries(PEOPLE)) {
      t.clock.advance(1000);
      const user = await ensureEndUser(db, t.clock, acme.appId, `token-${name}`);
      names.set(user.id, name);
      if (Object.keys(own).length === 0 && company === undefined) continue;
      const reportedAt = Math.floor(t.clock.now().getTime() / 1000);
      await db.transaction().execute((trx) =>
        writeAttributes(trx, t.clock, acme.appId, `token-${name}`, { ...own, ...(company === undefined ? {} : { company: { report: parseCompanyReport(company, malformedBodyField), reportedAt } }) }),
      );
    }
  });
  afterAll(() => t.close());

  const url = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/segments`;
  const create = (body: unknown) => acme.console.post(url(), body);
  /** The members of a rule, by name, through a segment made for it (and deleted again). */
  const membersOf = async (rule: unknown): Promise<string[]> => {
    const made = await create({ name: "Probe", rule });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const res = await acme.console.get(`/workspaces/${acme.wsId}/segments/${made.body.id}/members?limit=200`);
    expect(res.body.total).toBe(res.body.members.length);
    await acme.console.delete(`/workspaces/${acme.wsId}/segments/${made.body.id}`);
    return (res.body.members as Array<{ id: string }>).map((m) => names.get(m.id)!).sort();
  };

  it("holds the end users every condition of its rule holds, on user and company attributes alike", async () => {
    const cases: Array<[unknown, string[]]> = [
      [{}, ["alice", "bob", "carol", "dave", "erin"]],
      [{ user: { isPaying: true } }, ["alice", "carol", "dave"]],
      [{ user: { isPaying: false } }, ["bob"]],
      [{ user: { plans: ["pro", "enterprise"] } }, ["alice", "carol", "dave"]],
      [{ user: { mrr: { min: 60, currency: "usd" } } }, ["alice", "dave"]],
      [{ user: { mrr: { max: 100, currency: "USD" } } }, ["alice"]],
      [{ user: { mrr: { min: 0, currency: "EUR" } } }, ["carol"]],
      [{ company: { ids: ["acme"] } }, ["alice", "bob"]],
      [{ company: { plans: ["startup"] } }, ["carol"]],
      [{ company: { mrr: { min: 1000, currency: "USD" } } }, ["alice", "bob"]],
      [{ company: { mrr: { min: 100, max: 300, currency: "USD" } } }, ["carol"]],
      // An attribute matches by JSON type too: 40 is not "40", true is not 1.
      [{ company: { attributes: [{ key: "seats", in: [40] }] } }, ["alice", "bob"]],
      [{ company: { attributes: [{ key: "seats", in: ["40"] }] } }, ["carol"]],
      [{ company: { attributes: [{ key: "trial", in: [true] }] } }, ["carol"]],
      [{ company: { attributes: [{ key: "trial", in: [1] }] } }, []],
      [{ company: { attributes: [{ key: "region", in: ["eu", "us"] }, { key: "trial", in: [false] }] } }, ["alice", "bob"]],
      [{ user: { isPaying: true }, company: { attributes: [{ key: "region", in: ["eu", "us"] }] } }, ["alice", "carol"]],
      [{ user: { plans: ["pro"] }, company: { ids: ["acme", "initech"], plans: ["enterprise"] } }, ["alice"]],
    ];
    for (const [rule, expected] of cases) expect(await membersOf(rule), JSON.stringify(rule)).toEqual(expected);
  });

  it("creates, reads with its member count, renames, changes and deletes a segment", async () => {
    const made = await create({ name: "Paying", rule: { user: { isPaying: true, mrr: { min: 10, currency: "usd" } } } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "Paying", appId: acme.appId, rule: { user: { isPaying: true, mrr: { min: 10, currency: "USD" } } } });
    const id = made.body.id as string;
    expect((await acme.console.get(`/workspaces/${acme.wsId}/segments/${id}`)).body).toMatchObject({ name: "Paying", memberCount: 2 });
    const changed = await acme.console.patch(`/workspaces/${acme.wsId}/segments/${id}`, { name: "Payers", rule: { user: { isPaying: true } } });
    expect(changed.body).toMatchObject({ name: "Payers", rule: { user: { isPaying: true } } });
    expect((await acme.console.get(`/workspaces/${acme.wsId}/segments/${id}`)).body.memberCount).toBe(3);
    expect((await acme.console.get(url())).body.segments.map((s: { name: string }) => s.name)).toEqual(["Payers"]);
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/segments/${id}`)).body).toEqual({ success: true });
    const gone = await acme.console.get(`/workspaces/${acme.wsId}/segments/${id}`);
    expect([gone.status, gone.body.code]).toEqual([404, "segment_not_found"]);
  });

  it("pages through the members newest first by cursor, each once, and refuses a cursor it did not hand out", async () => {
    const id = (await create({ name: "Everyone", rule: {} })).body.id as string;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await acme.console.get(`/workspaces/${acme.wsId}/segments/${id}/members?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`);
      expect(res.body.total).toBe(5);
      seen.push(...res.body.members.map((m: { id: string }) => names.get(m.id)));
      cursor = res.body.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(["erin", "dave", "carol", "bob", "alice"]);
    const first = (await acme.console.get(`/workspaces/${acme.wsId}/segments/${id}/members?limit=1`)).body.members[0];
    expect(first).toEqual({ id: expect.stringMatching(/^eu_/), publicId: expect.any(String), displayName: null, email: null, isPaying: null, plan: null, mrr: null, currency: null, company: null });
    const carol = (await acme.console.get(`/workspaces/${acme.wsId}/segments/${id}/members?limit=3`)).body.members[2];
    expect(carol).toMatchObject({ isPaying: true, plan: "pro", mrr: 50, currency: "EUR", company: { externalId: "globex", name: "Globex" } });
    const bad = await acme.console.get(`/workspaces/${acme.wsId}/segments/${id}/members?cursor=nonsense`);
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_cursor"]);
    await acme.console.delete(`/workspaces/${acme.wsId}/segments/${id}`);
  });

  it("refuses bad rules with 400 naming the problem, writing nothing", async () => {
    const refusals: Array<[unknown, string, string?]> = [
      [{ user: { plan: ["pro"] } }, "validation_failed"],
      [{ user: { isPaying: "yes" } }, "validation_failed"],
      [{ everyone: true }, "validation_failed"],
      [{ company: { attributes: [{ key: "seats", equals: 40 }] } }, "validation_failed"],
      [{ company: { attributes: [{ key: "bad key", in: [1] }] } }, "validation_failed"],
      [{ company: { attributes: [{ key: "seats", in: [{ nested: 1 }] }] } }, "validation_failed"],
      [{ user: { plans: [] } }, "validation_failed"],
      [{ user: { plans: Array.from({ length: 101 }, (_, i) => `p${i}`) } }, "validation_failed"],
      [{ company: { attributes: Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, in: [1] })) } }, "validation_failed"],
      [{ user: { plans: ["a"], isPaying: true }, company: { attributes: Array.from({ length: 19 }, (_, i) => ({ key: `k${i}`, in: [1] })) } }, "validation_failed", "rule"],
      [{ user: { mrr: { min: -1, currency: "USD" } } }, "validation_failed"],
      [{ user: { mrr: { min: 10, max: 5, currency: "USD" } } }, "validation_failed", "rule.user.mrr.max"],
      [{ company: { mrr: { min: 10 } } }, "validation_failed"],
      [{ company: { mrr: { min: 10, currency: "XYZ" } } }, "unknown_currency"],
    ];
    for (const [rule, code, field] of refusals) {
      const res = await create({ name: "Bad", rule });
      expect([res.status, res.body.code], JSON.stringify(rule).slice(0, 120)).toEqual([400, code]);
      if (field !== undefined) expect(Object.keys(res.body.details.fieldErrors)).toEqual([field]);
    }
    // A non-finite MRR (1e999 reads as Infinity) is refused as well.
    const infinite = await t.app.inject({
      method: "POST",
      url: `/api/v1/console${url()}`,
      headers: { authorization: t.admin.authorization, "content-type": "application/json" },
      payload: '{"name":"Bad","rule":{"user":{"mrr":{"max":1e999,"currency":"USD"}}}}',
    });
    expect([infinite.statusCode, infinite.json().code]).toEqual([400, "validation_failed"]);
    expect((await acme.console.get(url())).body.segments).toEqual([]);
  });

  it("keeps an app to 50 segments and another workspace's segment out of reach", async () => {
    for (let i = 0; i < 50; i++) expect((await create({ name: `S${i}`, rule: {} })).status).toBe(201);
    const over = await create({ name: "One too many", rule: {} });
    expect([over.status, over.body.code, over.body.details]).toEqual([400, "too_many_segments", { limit: 50 }]);
    const segments = (await acme.console.get(url())).body.segments as Array<{ id: string }>;
    expect(segments).toHaveLength(50);
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other");
    for (const path of ["", "/members"]) {
      const res = await other.console.get(`/workspaces/${other.wsId}/segments/${segments[0]!.id}${path}`);
      expect([res.status, res.body.code]).toEqual([404, "segment_not_found"]);
    }
    for (const s of segments) await acme.console.delete(`/workspaces/${acme.wsId}/segments/${s.id}`);
  });
});
