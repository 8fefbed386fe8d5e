import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { signTestSsoToken } from "@tidings/testing/sso-tokens";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import type { CompanyAttributes } from "@tidings/protocol";
import { signAttributes } from "../users/attribute-signature.js";
import { tokenHash } from "../users/identity.js";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;

describe.each(testDialects())("votes on a customer's behalf on %s", (dialect) => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;

  const create = async (title: string, on: Workspace = ws) => (await on.console.post(`/workspaces/${on.wsId}/feature-requests`, { appId: on.appId, title })).body.id as string;
  const onBehalf = (id: string, body: Record<string, unknown>, on: Workspace = ws) => on.console.post(`/workspaces/${on.wsId}/feature-requests/${id}/votes`, body);
  const detail = async (id: string) => (await ws.console.get(`/workspaces/${ws.wsId}/feature-requests/${id}`)).body;
  const publicIdOf = async (token: string) =>
    (await t.database.db.kysely.selectFrom("endUsers").select("publicId").where("appId", "=", ws.appId).where("tokenHash", "=", tokenHash(token)).executeTakeFirstOrThrow()).publicId;
  const follows = (id: string) =>
    t.database.db.kysely.selectFrom("emailSubscriptions").select(["email", "status"]).where("featureRequestId", "=", id).where("kind", "=", "request").orderBy("email").execute();
  const report = async (token: string, company: CompanyAttributes) => {
    const timestamp = Math.floor(t.clock.now().getTime() / 1000);
    const signature = signAttributes(ws.signingSecret, { appKey: ws.appKey, userToken: token, company, timestamp });
    const res = await t.app.inject({ method: "PUT", url: `/api/v1/public/apps/${ws.appKey}/user`, headers: { "x-user-token": token }, payload: { company, timestamp, signature } });
    expect(res.statusCode, res.body).toBe(200);
    t.clock.advance(1000);
  };
  const feedback = async (headers: Record<string, string>, extra: Record<string, unknown> = {}) => {
    const res = await t.app.inject({ method: "POST", url: "/api/v1/feedback", headers, payload: { appKey: ws.appKey, title: "Hello", platform: "web", ...extra } });
    expect(res.statusCode, res.body).toBe(201);
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "behalf");
    other = await createWorkspaceWithApp(t.app, t.admin.authorization, "behalf-other");
    // Ada signed in through SSO (the host vouched for her address); Rex typed his on feedback.
    await feedback({ "x-sso-token": await signTestSsoToken(ws.signingSecret, ws.appKey, t.clock.now(), { sub: "ada", email: "Ada@Example.com", name: "Ada" }) });
    await feedback({ "x-user-token": "rex" }, { reporterEmail: "rex@example.com" });
    await report("acme-1", { id: "acme", name: "Acme" });
    await report("acme-2", { id: "acme" });
    await report("quiet", { id: "quiet-co", name: "Quiet" });
  });
  afterAll(() => t.close());

  it("votes by email, counts the vote, shows it as the team's, and makes the customer follow at once", async () => {
    const id = await create("SAML");
    const res = await onBehalf(id, { email: "ADA@example.com", note: "Asked on the renewal call" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ added: true, voteCount: 1, follow: "confirmed" });
    const record = await detail(id);
    expect(record.voteCount).toBe(1);
    expect(record.voters[0]).toMatchObject({ publicId: res.body.voterPublicId, displayName: "Ada", addedByTeam: true, note: "Asked on the renewal call" });
    expect(await follows(id)).toEqual([{ email: "ada@example.com", status: "confirmed" }]);
    // Again: nothing changes.
    expect((await onBehalf(id, { email: "ada@example.com" })).body).toMatchObject({ added: false, voteCount: 1, follow: "confirmed" });
    expect((await detail(id)).voteCount).toBe(1);
  });

  it("asks an address only the customer typed to confirm the follow", async () => {
    const id = await create("Tables");
    const res = await onBehalf(id, { endUserId: await publicIdOf("rex") });
    expect(res.body).toMatchObject({ added: true, voteCount: 1, follow: "pending" });
    expect(await follows(id)).toEqual([{ email: "rex@example.com", status: "pending" }]);
  });

  it("leaves a customer who stopped following unfollowed", async () => {
    const id = await create("Stopped");
    await onBehalf(id, { email: "ada@example.com" });
    await t.database.db.kysely.updateTable("emailSubscriptions").set({ status: "unsubscribed" }).where("featureRequestId", "=", id).execute();
    expect((await onBehalf(id, { email: "ada@example.com" })).body.follow).toBe("declined");
    expect(await follows(id)).toEqual([{ email: "ada@example.com", status: "unsubscribed" }]);
  });

  it("keeps a vote the customer cast themselves as theirs", async () => {
    const id = await create("Own vote");
    await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": "rex" } });
    expect((await onBehalf(id, { endUserId: await publicIdOf("rex"), note: "dup" })).body).toMatchObject({ added: false, voteCount: 1 });
    expect((await detail(id)).voters[0]).toMatchObject({ addedByTeam: false, note: null });
  });

  it("votes for a company through its first user, once per company", async () => {
    const id = await create("Audit log");
    const first = await onBehalf(id, { companyId: await companyId("acme") });
    expect(first.body).toMatchObject({ added: true, voteCount: 1, voterPublicId: await publicIdOf("acme-1"), follow: "none" });
    expect((await onBehalf(id, { companyId: await companyId("acme") })).body).toMatchObject({ added: false, voteCount: 1 });
    // A company whose second user voted already is not voted for twice.
    const second = await create("Audit export");
    await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${second}/vote`, headers: { "x-user-token": "acme-2" } });
    expect((await onBehalf(second, { companyId: await companyId("acme") })).body).toMatchObject({ added: false, voteCount: 1, voterPublicId: await publicIdOf("acme-2") });
    expect((await detail(id)).companyCount).toBe(1);
  });

  it("names an unknown user or email in a 4xx and writes nothing", async () => {
    const id = await create("Nobody");
    const byId = await onBehalf(id, { endUserId: "u_doesnotexist" });
    expect({ status: byId.status, code: byId.body.code, details: byId.body.details }).toEqual({ status: 404, code: "end_user_not_found", details: { endUserId: "u_doesnotexist" } });
    const byEmail = await onBehalf(id, { email: "ghost@example.com" });
    expect({ status: byEmail.status, code: byEmail.body.code, details: byEmail.body.details }).toEqual({ status: 404, code: "end_user_not_found", details: { email: "ghost@example.com" } });
    expect(byEmail.body.error).toContain("ghost@example.com");
    expect((await onBehalf(id, { companyId: "co_00000000000000000000000000" })).body.code).toBe("company_not_found");
    expect((await onBehalf(id, { endUserId: await publicIdOf("rex"), email: "ada@example.com" })).status).toBe(400);
    expect((await onBehalf(id, {})).status).toBe(400);
    expect((await onBehalf(id, { email: "not an address" })).status).toBe(400);
    const record = await detail(id);
    expect(record.voteCount).toBe(0);
    expect(record.voters).toEqual([]);
    expect(await follows(id)).toEqual([]);
  });

  it("votes on a private board only for customers its rule admits, by plan or by segment, and writes nothing otherwise", async () => {
    const timestamp = () => Math.floor(t.clock.now().getTime() / 1000);
    const plan = async (token: string, value: string) => {
      const signature = signAttributes(ws.signingSecret, { appKey: ws.appKey, userToken: token, plan: value, timestamp: timestamp() });
      const res = await t.app.inject({ method: "PUT", url: `/api/v1/public/apps/${ws.appKey}/user`, headers: { "x-user-token": token }, payload: { plan: value, timestamp: timestamp(), signature } });
      expect(res.statusCode, res.body).toBe(200);
      t.clock.advance(1000);
    };
    await plan("boss", "enterprise");
    await plan("rex", "free");
    const board = async (name: string, accessRule: Record<string, unknown>) => {
      const res = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/boards`, { name, visibility: "private", accessRule });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const createOn = async (boardId: string, title: string) =>
      (await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title, boardId })).body.id as string;

    const enterprise = await createOn(await board("Enterprise", { plans: ["enterprise"] }), "SCIM");
    const refused = await onBehalf(enterprise, { endUserId: await publicIdOf("rex") });
    expect({ status: refused.status, code: refused.body.code, details: refused.body.details }).toMatchObject({
      status: 409,
      code: "customer_not_admitted",
      details: { endUserId: await publicIdOf("rex") },
    });
    expect((await detail(enterprise)).voteCount).toBe(0);
    expect(await follows(enterprise)).toEqual([]);
    expect((await onBehalf(enterprise, { endUserId: await publicIdOf("boss") })).body).toMatchObject({ added: true, voteCount: 1 });

    const segment = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/segments`, { name: "Acme", rule: { company: { ids: ["acme"] } } });
    expect(segment.status, JSON.stringify(segment.body)).toBe(201);
    const acmeOnly = await createOn(await board("Acme lounge", { segmentId: segment.body.id }), "Acme SSO");
    expect((await onBehalf(acmeOnly, { companyId: await companyId("quiet-co") })).body.code).toBe("customer_not_admitted");
    expect((await onBehalf(acmeOnly, { companyId: await companyId("acme") })).body).toMatchObject({ added: true, voteCount: 1, voterPublicId: await publicIdOf("acme-1") });
    expect((await detail(acmeOnly)).voteCount).toBe(1);
  });

  it("answers 404 for another workspace's request, and another app's user", async () => {
    const theirs = await create("Theirs", other);
    expect((await onBehalf(theirs, { email: "ada@example.com" })).body.code).toBe("feature_request_not_found");
    // Ada is an end user of ws's app, not of other's.
    expect((await onBehalf(theirs, { email: "ada@example.com" }, other)).body.code).toBe("end_user_not_found");
  });

  it("keeps the count exact when the team and the customers vote at once", async () => {
    const id = await create("Race");
    const rex = await publicIdOf("rex");
    await Promise.all([
      onBehalf(id, { endUserId: rex }),
      onBehalf(id, { email: "ada@example.com" }),
      onBehalf(id, { companyId: await companyId("acme") }),
      ...["rex", "acme-2", "v1", "v2", "v3"].map((token) => t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token } })),
    ]);
    const stored = await t.database.db.kysely.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", id).execute();
    expect((await detail(id)).voteCount).toBe(stored.length);
  });

  const companyId = async (externalId: string) =>
    (await t.database.db.kysely.selectFrom("companies").select("id").where("appId", "=", ws.appId).where("externalId", "=", externalId).executeTakeFirstOrThrow()).id;
});
