import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { signTestSsoToken, unsignedTestSsoToken } from "@tidings/testing/sso-tokens";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import type { CompanyAttributes } from "@tidings/protocol";
import { signAttributes } from "./attribute-signature.js";
import { tokenHash, userHash } from "./identity.js";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;
interface Attrs {
  isPaying?: boolean;
  plan?: string | null;
  mrr?: number | null;
  currency?: string;
  company?: CompanyAttributes | null;
}

describe.each(testDialects())("a user's company, reported by the host, on %s", (dialect) => {
  let t: TestApp;
  let acme: Workspace;
  let requestId: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "acme-co");
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { moderationPolicy: "none" });
    const proposed = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "proposer" }, payload: { appKey: acme.appKey, title: "SAML" } });
    requestId = proposed.json().featureRequestId;
  });
  afterAll(() => t.close());

  const now = () => Math.floor(t.clock.now().getTime() / 1000);
  const put = (payload: unknown, token: string | null, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "PUT",
      url: `/api/v1/public/apps/${acme.appKey}/user`,
      headers: { ...(token === null ? {} : { "x-user-token": token }), "content-type": "application/json", ...headers },
      payload: typeof payload === "string" ? payload : JSON.stringify(payload),
    });
  const signed = (token: string, attrs: Attrs, timestamp = now()) => ({
    ...attrs,
    timestamp,
    signature: signAttributes(acme.signingSecret, { appKey: acme.appKey, userToken: token, ...attrs, timestamp }),
  });
  const companies = () =>
    t.database.db.kysely.selectFrom("companies").select(["externalId", "name", "mrrCents", "currency", "plan", "attributes"]).where("appId", "=", acme.appId).orderBy("externalId").execute();
  const companyOf = async (token: string) => {
    const row = await t.database.db.kysely
      .selectFrom("endUsers as eu")
      .leftJoin("companies as c", "c.id", "eu.companyId")
      .select(["c.externalId", "c.name", "c.mrrCents"])
      .where("eu.appId", "=", acme.appId)
      .where("eu.tokenHash", "=", tokenHash(token))
      .executeTakeFirst();
    return row?.externalId ?? null;
  };

  it("stores a signed company with its MRR, currency, plan and attributes, and the user in it", async () => {
    const company = { id: "acct_1", name: "Acme GmbH", mrr: 1200.5, currency: "eur", plan: "business", attributes: { seats: 40, region: "eu" } };
    const res = await put(signed("ada", { isPaying: true, company }), "ada");
    expect(res.statusCode).toBe(200);
    expect(await companies()).toEqual([{ externalId: "acct_1", name: "Acme GmbH", mrrCents: 120050, currency: "EUR", plan: "business", attributes: '{"region":"eu","seats":40}' }]);
    expect(await companyOf("ada")).toBe("acct_1");
    // A second user of the same company joins it; fields left out keep their values.
    expect((await put(signed("bob", { company: { id: "acct_1" } }), "bob")).statusCode).toBe(200);
    expect(await companyOf("bob")).toBe("acct_1");
    expect(await companies()).toHaveLength(1);
    expect((await companies())[0]).toMatchObject({ name: "Acme GmbH", mrrCents: 120050 });
  });

  it("refuses a company without a signature, even from a caller whose X-User-Hash is right, and writes nothing", async () => {
    const before = await companies();
    for (const company of [{ id: "acct_new", name: "New" }, { id: "acct_1", name: "Renamed" }, { id: "acct_1", mrr: 999_999 }, { id: "acct_2" }, null]) {
      const res = await put({ company }, "ada", { "x-user-hash": userHash(acme.signingSecret, "ada") });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: "payment_attributes_require_signature" });
    }
    expect(await companies()).toEqual(before);
    expect(await companyOf("ada")).toBe("acct_1");
    expect(await companyOf("never-seen")).toBeNull();
  });

  it("refuses a company added to, or changed in, a signed body with 401 invalid_signature", async () => {
    const before = await companies();
    const v1 = signed("ada", { isPaying: true });
    const cases = [
      { ...v1, company: { id: "acct_1", mrr: 1_000_000 } },
      { ...signed("ada", { company: { id: "acct_1", name: "Acme GmbH" } }), company: { id: "acct_1", name: "Mallory Inc" } },
      { ...signed("ada", { company: { id: "acct_1", mrr: 10 } }), company: { id: "acct_1", mrr: 10_000 } },
      { ...signed("ada", { company: { id: "acct_1" } }), company: { id: "acct_2" } },
      { ...signed("ada", { company: { id: "acct_1" } }), company: null },
      { ...signed("ada", { company: { id: "acct_1", attributes: { seats: 40 } } }), company: { id: "acct_1", attributes: { seats: 400 } } },
    ];
    for (const body of cases) {
      const res = await put(body, "ada");
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: "invalid_signature" });
    }
    // Signed for Ada, sent as Bob: Bob does not move.
    expect((await put(signed("ada", { company: { id: "acct_2" } }), "bob")).statusCode).toBe(401);
    expect(await companies()).toEqual(before);
    expect(await companyOf("ada")).toBe("acct_1");
    expect(await companyOf("bob")).toBe("acct_1");
  });

  it("answers 400 with the registry's codes for a bad MRR, currency or attribute map, signed or not, and writes nothing", async () => {
    const before = await companies();
    const expectCode = async (body: unknown, code: string) => {
      const res = await put(body, "ada");
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ code });
    };
    await expectCode(signed("ada", { company: { id: "acct_1", mrr: -5 } }), "invalid_mrr");
    await expectCode({ company: { id: "acct_1", mrr: -5 } }, "invalid_mrr");
    // JSON has no Infinity, but 1e999 parses as one.
    await expectCode(`{"company":{"id":"acct_1","mrr":1e999},"timestamp":${now()},"signature":"${"0".repeat(64)}"}`, "invalid_mrr");
    await expectCode(signed("ada", { company: { id: "acct_1", currency: "XYZ" } }), "unknown_currency");
    await expectCode({ currency: "ABC" }, "unknown_currency");
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    await expectCode(signed("ada", { company: { id: "acct_1", attributes: many } }), "company_attributes_too_large");
    await expectCode(signed("ada", { company: { id: "acct_1", attributes: { notes: "x".repeat(1001) } } }), "company_attributes_too_large");
    await expectCode(signed("ada", { company: { id: "acct_1", name: "Two\nlines" } }), "validation_failed");
    await expectCode(signed("ada", { company: { id: "acct_1", attributes: { "bad key": 1 } } }), "validation_failed");
    expect(await companies()).toEqual(before);
  });

  it("moves a user to another company, or out of theirs, only with a signature", async () => {
    expect((await put(signed("bob", { company: { id: "acct_2", name: "Beta", mrr: 50, currency: "usd" } }), "bob")).statusCode).toBe(200);
    expect(await companyOf("bob")).toBe("acct_2");
    expect((await put(signed("bob", { company: null }), "bob")).statusCode).toBe(200);
    expect(await companyOf("bob")).toBeNull();
    // The company stays; only the membership went.
    expect((await companies()).map((c) => c.externalId)).toEqual(["acct_1", "acct_2"]);
  });

  describe("through the SSO token's company claim", () => {
    const sign = (claims: Record<string, unknown>) => signTestSsoToken(acme.signingSecret, acme.appKey, t.clock.now(), claims);
    const vote = (headers: Record<string, string>) => t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${requestId}/vote`, headers });

    it("puts the signed-in user in the claimed company when they vote", async () => {
      t.clock.advance(10_000);
      const res = await vote({ "x-sso-token": await sign({ sub: "sso-1", company: { id: "acct_3", name: "Gamma", mrr: 300, currency: "GBP", plan: "team" } }) });
      expect(res.statusCode).toBe(200);
      expect(await companyOf("sso sso-1")).toBe("acct_3");
      expect((await companies()).find((c) => c.externalId === "acct_3")).toMatchObject({ name: "Gamma", mrrCents: 30000, currency: "GBP", plan: "team" });
    });

    it("refuses an unsigned or forged token carrying a company, and changes nothing", async () => {
      const before = await companies();
      const forged = unsignedTestSsoToken(acme.appKey, t.clock.now(), { sub: "sso-1", company: { id: "acct_3", mrr: 1_000_000 } });
      expect((await vote({ "x-sso-token": forged })).statusCode).toBe(401);
      const wrongKey = await signTestSsoToken("another-secret", acme.appKey, t.clock.now(), { sub: "sso-1", company: { id: "acct_4" } });
      expect((await vote({ "x-sso-token": wrongKey })).json()).toMatchObject({ code: "sso_signature_mismatch" });
      expect(await companies()).toEqual(before);
      expect(await companyOf("sso sso-1")).toBe("acct_3");
    });

    it("answers a claim with a bad MRR, currency or attributes with the same 400s, and a malformed one with invalid_sso_token", async () => {
      const before = await companies();
      const codeOf = async (company: unknown) => (await vote({ "x-sso-token": await sign({ sub: "sso-2", company }) })).json().code as string;
      expect(await codeOf({ id: "acct_5", mrr: -1 })).toBe("invalid_mrr");
      expect(await codeOf({ id: "acct_5", currency: "XXY" })).toBe("unknown_currency");
      expect(await codeOf({ id: "acct_5", attributes: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, true])) })).toBe("company_attributes_too_large");
      expect(await codeOf({ name: "no id" })).toBe("invalid_sso_token");
      expect(await codeOf("acct_5")).toBe("invalid_sso_token");
      expect(await companies()).toEqual(before);
    });

    it("leaves the company alone when the claim is absent, and takes the user out of it when it is null", async () => {
      t.clock.advance(10_000);
      await vote({ "x-sso-token": await sign({ sub: "sso-1", name: "No claim" }) });
      expect(await companyOf("sso sso-1")).toBe("acct_3");
      t.clock.advance(10_000);
      await vote({ "x-sso-token": await sign({ sub: "sso-1", company: null }) });
      expect(await companyOf("sso sso-1")).toBeNull();
    });

    it("lets no older token, still held by a page, undo a newer report", async () => {
      const oldToken = await sign({ sub: "sso-9", company: { id: "acct_6", name: "Old name", mrr: 10 } });
      t.clock.advance(60_000);
      // A minute later the host re-prices the company in a fresh token, and the user votes with it.
      expect((await vote({ "x-sso-token": await sign({ sub: "sso-9", company: { id: "acct_6", name: "New name", mrr: 20 } }) })).statusCode).toBe(200);
      // Another tab still holds the older token and votes with it.
      expect((await vote({ "x-sso-token": oldToken })).statusCode).toBe(200);
      expect((await companies()).find((c) => c.externalId === "acct_6")).toMatchObject({ name: "New name", mrrCents: 2000 });
      // Nor does it move the user back out of a company they were moved to later.
      t.clock.advance(60_000);
      await vote({ "x-sso-token": await sign({ sub: "sso-9", company: { id: "acct_7" } }) });
      await vote({ "x-sso-token": oldToken });
      expect(await companyOf("sso sso-9")).toBe("acct_7");
    });
  });
});
