import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import type { CompanyAttributes } from "@tidings/protocol";
import { signAttributes } from "../users/attribute-signature.js";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;
interface Record {
  id: string;
  title: string;
  companyCount: number;
  companyRevenue: Array<{ currency: string; mrr: number }>;
  voteCount: number;
}

describe.each(testDialects())("revenue counted by company on %s", (dialect) => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  const ids: { [title: string]: string } = {};

  const now = () => Math.floor(t.clock.now().getTime() / 1000);
  const report = async (token: string, attrs: { isPaying?: boolean; plan?: string | null; mrr?: number | null; currency?: string; company?: CompanyAttributes | null }, on: Workspace = ws) => {
    const timestamp = now();
    const signature = signAttributes(on.signingSecret, { appKey: on.appKey, userToken: token, ...attrs, timestamp });
    const res = await t.app.inject({ method: "PUT", url: `/api/v1/public/apps/${on.appKey}/user`, headers: { "x-user-token": token }, payload: { ...attrs, timestamp, signature } });
    expect(res.statusCode, res.body).toBe(200);
  };
  const vote = async (title: string, token: string) => {
    const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${ids[title]}/vote`, headers: { "x-user-token": token } });
    expect(res.json()).toMatchObject({ voted: true });
  };
  const list = async (query: string) => {
    const res = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests?appId=${ws.appId}&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.requests as Record[];
  };
  const titles = async (query: string) => (await list(query)).map((r) => r.title);
  const record = async (title: string) => (await ws.console.get(`/workspaces/${ws.wsId}/feature-requests/${ids[title]}`)).body;
  const companyId = async (externalId: string) =>
    (await t.database.db.kysely.selectFrom("companies").select("id").where("appId", "=", ws.appId).where("externalId", "=", externalId).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "revenue");
    other = await createWorkspaceWithApp(t.app, t.admin.authorization, "revenue-other");
    for (const title of ["SSO", "Audit log", "Dark mode"]) {
      const res = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title });
      ids[title] = res.body.id;
    }
    // Acme pays in euros, Beta in dollars, Gamma has not said; two paying users have no company.
    await report("a1", { isPaying: true, plan: "pro", mrr: 5, company: { id: "acme", name: "Acme", mrr: 1000, currency: "EUR", plan: "business" } });
    await report("a2", { company: { id: "acme" } });
    await report("b1", { company: { id: "beta", name: "Beta", mrr: 500, currency: "USD", plan: "team" } });
    await report("c1", { company: { id: "gamma", name: "Gamma" } });
    await report("s1", { isPaying: true, plan: "pro", mrr: 49, currency: "USD" });
    await report("s2", { isPaying: true, mrr: 10, currency: "EUR" });
    await report("n1", { isPaying: false, plan: "pro", mrr: 99, currency: "USD" });
    for (const token of ["a1", "a2", "b1", "s1"]) await vote("SSO", token);
    for (const token of ["a1", "s2", "n1"]) await vote("Audit log", token);
    for (const token of ["b1", "c1"]) await vote("Dark mode", token);
  });
  afterAll(() => t.close());

  it("counts each company once, users without one alone, and keeps currencies apart", async () => {
    const rows = await list("sort=newest");
    const byTitle = Object.fromEntries(rows.map((r) => [r.title, r]));
    // Acme's two voters are one company: 1,000 €, not 2,000 €; a1's own MRR is Acme's.
    expect(byTitle.SSO).toMatchObject({ companyCount: 2, companyRevenue: [{ currency: "EUR", mrr: 1000 }, { currency: "USD", mrr: 549 }] });
    // n1 is not paying: their MRR does not count, as for the paying voters' revenue.
    expect(byTitle["Audit log"]).toMatchObject({ companyCount: 1, companyRevenue: [{ currency: "EUR", mrr: 1010 }] });
    // Gamma counts as a company with no known MRR.
    expect(byTitle["Dark mode"]).toMatchObject({ companyCount: 2, companyRevenue: [{ currency: "USD", mrr: 500 }] });
  });

  it("sorts by company revenue in the currency asked, and by company count", async () => {
    expect(await titles("sort=company_revenue&currency=eur")).toEqual(["Audit log", "SSO", "Dark mode"]);
    expect(await titles("sort=company_revenue")).toEqual(["SSO", "Dark mode", "Audit log"]);
    // SSO and Dark mode both have two companies; SSO has more votes.
    expect(await titles("sort=company_count")).toEqual(["SSO", "Dark mode", "Audit log"]);
  });

  it("filters by company revenue, company count, plan and company", async () => {
    expect(await titles("minCompanies=2&sort=votes")).toEqual(["SSO", "Dark mode"]);
    expect(await titles("minCompanyRevenue=1005&currency=EUR")).toEqual(["Audit log"]);
    expect((await titles("minCompanyRevenue=500&sort=votes"))).toEqual(["SSO", "Dark mode"]);
    // A company's plan, and a user's own plan only when they have no company (a1's "pro" is not).
    expect(await titles("plan=business&sort=votes")).toEqual(["SSO", "Audit log"]);
    expect(await titles("plan=pro&sort=votes")).toEqual(["SSO", "Audit log"]);
    expect(await titles("plan=team&sort=votes")).toEqual(["SSO", "Dark mode"]);
    expect(await titles(`companyId=${await companyId("beta")}&sort=votes`)).toEqual(["SSO", "Dark mode"]);
  });

  it("refuses an unknown currency with 400 and another workspace's company with 404", async () => {
    const bad = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests?sort=company_revenue&currency=ABC`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "unknown_currency" });
    await report("x1", { company: { id: "elsewhere" } }, other);
    const foreign = (await t.database.db.kysely.selectFrom("companies").select("id").where("appId", "=", other.appId).executeTakeFirstOrThrow()).id;
    const res = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests?companyId=${foreign}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "company_not_found" });
    expect((await ws.console.get(`/workspaces/${ws.wsId}/companies/${foreign}`)).status).toBe(404);
  });

  it("shows a request's companies with their MRR and voters, and each voter's company", async () => {
    const detail = await record("SSO");
    expect(detail.companies).toEqual([
      { id: await companyId("acme"), externalId: "acme", name: "Acme", mrr: 1000, currency: "EUR", plan: "business", voters: 2 },
      { id: await companyId("beta"), externalId: "beta", name: "Beta", mrr: 500, currency: "USD", plan: "team", voters: 1 },
    ]);
    const companyOf = Object.fromEntries((detail.voters as Array<{ company: { externalId: string } | null; mrr: number | null }>).map((v) => [v.mrr, v.company?.externalId ?? null]));
    expect(companyOf).toMatchObject({ 5: "acme", 49: null });
  });

  it("follows moves between companies and re-pricing at once", async () => {
    await report("a2", { company: { id: "beta" } });
    expect((await record("SSO")).companyRevenue).toEqual([{ currency: "EUR", mrr: 1000 }, { currency: "USD", mrr: 549 }]);
    // a1 leaves Acme: Acme no longer votes for SSO, and a1 counts alone with their own MRR.
    await report("a1", { company: null });
    expect(await record("SSO")).toMatchObject({ companyCount: 1, companyRevenue: [{ currency: "USD", mrr: 554 }] });
    await report("b1", { company: { id: "beta", mrr: 600 } });
    expect((await record("SSO")).companyRevenue).toEqual([{ currency: "USD", mrr: 654 }]);
    expect((await record("Dark mode")).companyRevenue).toEqual([{ currency: "USD", mrr: 600 }]);
  });

  it("carries the companies into the requests CSV and the archive", async () => {
    const download = (query: string) =>
      t.app.inject({ url: `/api/v1/console/workspaces/${ws.wsId}/apps/${ws.appId}/export${query}`, headers: { authorization: t.admin.authorization } });
    const csv = await download("?format=csv");
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.split("\r\n");
    expect(lines[0]).toMatch(/,updated_at,companies,company_revenue,company_names,board,tags$/);
    const sso = lines.find((l) => l.includes(",SSO,"))!;
    expect(sso.endsWith(",1,USD 654,Beta,Feature requests,")).toBe(true);
    const audit = lines.find((l) => l.includes(",Audit log,"))!;
    expect(audit.endsWith(",0,EUR 10; USD 5,,Feature requests,")).toBe(true);
    const rows = (await download(""))
      .body.trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; table?: string; row?: { [column: string]: unknown } });
    const companies = rows.filter((r) => r.table === "companies").map((r) => r.row!);
    expect(companies.map((c) => c.externalId).sort()).toEqual(["acme", "beta", "gamma"]);
    expect(companies.find((c) => c.externalId === "beta")).toMatchObject({ name: "Beta", mrrCents: 60000, currency: "USD", plan: "team", attributes: "{}" });
    const b1 = rows.filter((r) => r.table === "endUsers").map((r) => r.row!).filter((u) => u.companyId === companies.find((c) => c.externalId === "beta")!.id);
    expect(b1).toHaveLength(2);
  });

  it("lists an app's companies and shows a company's users, votes, comments and feedback", async () => {
    const comment = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${ids["Dark mode"]}/comments`, headers: { "x-user-token": "b1" }, payload: { body: "We need this" } });
    expect(comment.statusCode).toBe(201);
    const feedback = await t.app.inject({ method: "POST", url: "/api/v1/feedback", headers: { "x-user-token": "b1" }, payload: { appKey: ws.appKey, title: "Export is slow", platform: "web" } });
    expect(feedback.statusCode, feedback.body).toBe(201);

    const companies = await ws.console.get(`/workspaces/${ws.wsId}/apps/${ws.appId}/companies`);
    expect(companies.status).toBe(200);
    expect(companies.body.total).toBe(3);
    expect(companies.body.companies.map((c: { externalId: string }) => c.externalId)).toEqual(["acme", "beta", "gamma"]);
    expect(companies.body.companies[1]).toMatchObject({ name: "Beta", mrr: 600, currency: "USD", plan: "team", userCount: 2, requestCount: 2, attributes: {} });
    expect((await ws.console.get(`/workspaces/${ws.wsId}/apps/${ws.appId}/companies?q=GAM`)).body.companies).toHaveLength(1);
    expect((await ws.console.get(`/workspaces/${ws.wsId}/apps/${ws.appId}/companies?plan=team`)).body.total).toBe(1);

    const endUsers = (await ws.console.get(`/workspaces/${ws.wsId}/apps/${ws.appId}/end-users?limit=200`)).body.users as Array<{ company: { externalId: string } | null }>;
    expect(endUsers.filter((u) => u.company?.externalId === "beta")).toHaveLength(2);
    const page = await ws.console.get(`/workspaces/${ws.wsId}/companies/${await companyId("beta")}`);
    expect(page.status).toBe(200);
    expect(page.body.company).toMatchObject({ externalId: "beta", userCount: 2 });
    expect(page.body.users).toHaveLength(2);
    expect(page.body.votes.map((v: { title: string }) => v.title).sort()).toEqual(["Dark mode", "SSO", "SSO"]);
    expect(page.body.comments).toEqual([expect.objectContaining({ body: "We need this", title: "Dark mode", hidden: false })]);
    expect(page.body.feedback).toEqual([expect.objectContaining({ title: "Export is slow", triageStatus: "open" })]);
  });

  it("keeps the counts exact when a company's users vote and the company is re-priced at the same time", async () => {
    const users = Array.from({ length: 12 }, (_, i) => `d${i}`);
    await Promise.all(users.map((token) => report(token, { company: { id: "delta", name: "Delta", mrr: 100, currency: "USD" } })));
    expect(await t.database.db.kysely.selectFrom("companies").select("id").where("externalId", "=", "delta").execute()).toHaveLength(1);
    const target = (await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title: "Concurrent" })).body.id as string;
    ids.Concurrent = target;
    await Promise.all([...users.map((token) => vote("Concurrent", token)), report("d0", { company: { id: "delta", mrr: 250 } })]);
    expect(await record("Concurrent")).toMatchObject({ voteCount: 12, companyCount: 1, companyRevenue: [{ currency: "USD", mrr: 250 }] });
  });
});
