import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userHash } from "../users/identity.js";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { signTestSsoToken } from "@tidings/testing/sso-tokens";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

const REFUSAL = { error: "Human verification is required", code: "verification_required" };

describe.each(testDialects())("identified users and human verification in production on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  let slugs = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect, { production: true, altchaCost: 1, altchaMaxCounter: 20 });
    // altcha-lib also checks expiry against the wall clock, so the fake clock starts at real time.
    t.clock.advance(Date.now() - t.clock.now().getTime());
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "trust-co");
  });
  afterAll(() => t.close());

  const signedIn = (ws: typeof acme, token = "user-42") => ({ "x-user-token": token, "x-user-hash": userHash(ws.signingSecret, token) });
  const feedback = (ws: typeof acme, headers: Record<string, string>, verificationToken?: string) =>
    t.app.inject({ method: "POST", url: "/api/v1/feedback", headers, payload: { appKey: ws.appKey, title: "Dark mode", description: "Please", verificationToken } });
  const solvedToken = async (ws: typeof acme) => {
    const challenge: Challenge = (await t.app.inject({ url: `/api/v1/public/apps/${ws.appKey}/verification/challenge?solver=js` })).json();
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  };
  const submissionCount = async (ws: typeof acme) =>
    Number((await t.app.ctx.db.kysely.selectFrom("submissions").select((eb) => eb.fn.countAll().as("n")).where("appId", "=", ws.appId).executeTakeFirstOrThrow()).n);
  const setTrust = async (ws: typeof acme, trustIdentifiedUsers: boolean) => {
    const res = await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { verification: { trustIdentifiedUsers } });
    expect(res.status).toBe(200);
    return res.body;
  };

  it("takes feedback from a user signed with X-User-Hash without a token, and spends none", async () => {
    const res = await feedback(acme, signedIn(acme));
    expect(res.statusCode).toBe(201);
    const used = await t.app.ctx.db.kysely.selectFrom("verificationTokensUsed").select("tokenHash").where("appId", "=", acme.appId).execute();
    expect(used).toEqual([]);
  });

  it("takes a proposal from a user signed in through SSO without a token", async () => {
    const token = await signTestSsoToken(acme.signingSecret, acme.appKey, t.clock.now(), { sub: "sso-7", name: "Grace" });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/feature-requests",
      headers: { "x-sso-token": token },
      payload: { appKey: acme.appKey, title: "Offline mode", description: "On the train" },
    });
    expect(res.statusCode).toBe(201);
  });

  it("still asks an anonymous caller, and a caller with only a user token, for a solved challenge spent once", async () => {
    const before = await submissionCount(acme);
    expect((await feedback(acme, {})).json()).toEqual(REFUSAL);
    expect((await feedback(acme, { "x-user-token": "user-42" })).json()).toEqual(REFUSAL);
    const token = await solvedToken(acme);
    expect((await feedback(acme, { "x-user-token": "user-42" }, token)).statusCode).toBe(201);
    const replay = await feedback(acme, {}, token);
    expect([replay.statusCode, replay.json()]).toEqual([403, REFUSAL]);
    expect(await submissionCount(acme)).toBe(before + 1);
  });

  it("refuses a hash that does not match the token with 401 and writes nothing", async () => {
    const before = await submissionCount(acme);
    const res = await feedback(acme, { "x-user-token": "user-42", "x-user-hash": userHash(acme.signingSecret, "user-43") });
    expect([res.statusCode, res.json().code]).toEqual([401, "invalid_user_hash"]);
    expect(await submissionCount(acme)).toBe(before);
  });

  it("asks identified users for a token too once the console turns trust off, and says so in the public config", async () => {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `trust-off-${++slugs}`);
    const config = async () => (await t.app.inject({ url: `/api/v1/public/config/${ws.appKey}` })).json().verification;
    expect(await config()).toMatchObject({ provider: "altcha", required: true, trustIdentifiedUsers: true });

    const settings = await setTrust(ws, false);
    expect(settings.verification).toMatchObject({ trustIdentifiedUsers: false });
    expect(await config()).toMatchObject({ required: true, trustIdentifiedUsers: false });
    const refused = await feedback(ws, signedIn(ws));
    expect([refused.statusCode, refused.json()]).toEqual([403, REFUSAL]);
    expect((await feedback(ws, signedIn(ws), await solvedToken(ws))).statusCode).toBe(201);

    await setTrust(ws, true);
    expect((await feedback(ws, signedIn(ws))).statusCode).toBe(201);
  });

  it("refuses a trust setting that is not a boolean with 400 and changes nothing", async () => {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `trust-bad-${++slugs}`);
    const res = await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { verification: { trustIdentifiedUsers: "yes" } });
    expect([res.status, res.body.code]).toEqual([400, "validation_failed"]);
    const settings = await ws.console.get(`/workspaces/${ws.wsId}/apps/${ws.appId}`);
    expect(settings.body.verification).toMatchObject({ trustIdentifiedUsers: true });
  });
});
