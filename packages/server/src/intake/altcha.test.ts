import { createHmac } from "node:crypto";
import { createChallenge, solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALTCHA_CHALLENGE_TTL_MS } from "./altcha.js";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { submitThroughGuard } from "@tidings/testing/intake-kit";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

const PLAIN_REFUSAL = { error: "Human verification is required", code: "verification_required" };
/** Cheap proof of work so solving takes milliseconds; `?solver=js` challenges have cost 2 and counters in [5, 10]. */
const EASY = { altchaCost: 3, altchaMaxCounter: 40, altchaJsCost: 2, altchaJsMaxCounter: 10 };

const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString("base64");

describe.each(testDialects())("built-in altcha on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;

  beforeAll(async () => {
    t = await createTestApp(dialect, EASY);
    // altcha-lib also checks expiry against the wall clock, so the fake clock starts at real time.
    t.clock.advance(Date.now() - t.clock.now().getTime());
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "altcha-co");
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { verification: { provider: "altcha" } });
  });
  afterAll(() => t.close());

  const challengeFor = async (appKey: string): Promise<Challenge> => {
    const res = await t.app.inject({ url: `/api/v1/public/apps/${appKey}/verification/challenge` });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const solve = async (challenge: Challenge) => {
    const solution = await solveChallenge({ challenge, deriveKey });
    if (solution === null) throw new Error("unsolved");
    return solution;
  };
  const freshToken = async (appKey = acme.appKey) => {
    const challenge = await challengeFor(appKey);
    return encode({ challenge, solution: await solve(challenge) });
  };
  const submit = (verificationToken: string | undefined, appKey = acme.appKey) =>
    submitThroughGuard(t.app.ctx, appKey, verificationToken === undefined ? {} : { verificationToken });

  it("serves a signed challenge bound to the app, expiring in 10 minutes, never cached", async () => {
    const res = await t.app.inject({ url: `/api/v1/public/apps/${acme.appKey}/verification/challenge` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const challenge = res.json();
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters).toMatchObject({ algorithm: "PBKDF2/SHA-256", cost: 3, data: { appKey: acme.appKey } });
    expect(challenge.parameters.expiresAt).toBe(Math.floor((t.clock.now().getTime() + ALTCHA_CHALLENGE_TTL_MS) / 1000));
    expect(challenge.parameters.keySignature).toMatch(/^[0-9a-f]{64}$/);
  });

  it("accepts a solved challenge once and refuses the same solution again", async () => {
    const token = await freshToken();
    expect(await submit(token)).toEqual({ status: 201, body: null });
    expect(await submit(token)).toEqual({ status: 403, body: PLAIN_REFUSAL });
  });

  it("refuses the same solution re-encoded differently", async () => {
    const challenge = await challengeFor(acme.appKey);
    const solution = await solve(challenge);
    expect((await submit(encode({ challenge, solution }))).status).toBe(201);
    // Same challenge and solution, other key order and whitespace: a different token text.
    const reencoded = Buffer.from(JSON.stringify({ solution, challenge }, null, 2)).toString("base64");
    expect(await submit(reencoded)).toEqual({ status: 403, body: PLAIN_REFUSAL });
  });

  it("refuses a missing token, garbage, a wrong solution and tampered parameters", async () => {
    expect(await submit(undefined)).toEqual({ status: 403, body: PLAIN_REFUSAL });
    expect((await submit("not base64 json")).status).toBe(403);
    expect((await submit(encode({ challenge: "x", solution: 1 }))).status).toBe(403);
    const challenge = await challengeFor(acme.appKey);
    const solution = await solve(challenge);
    expect((await submit(encode({ challenge, solution: { ...solution, derivedKey: "00".repeat(32) } }))).status).toBe(403);
    const longer = { ...challenge, parameters: { ...challenge.parameters, expiresAt: (challenge.parameters.expiresAt ?? 0) + 86_400 } };
    expect((await submit(encode({ challenge: longer, solution }))).status).toBe(403);
    // The untouched token still works: the refusals above were for the tampering.
    expect((await submit(encode({ challenge, solution }))).status).toBe(201);
  });

  it("refuses a challenge forged with another key, and one issued for another app", async () => {
    const forged = await createChallenge({
      algorithm: "PBKDF2/SHA-256",
      cost: 1,
      counter: 3,
      deriveKey,
      data: { appKey: acme.appKey },
      expiresAt: new Date(t.clock.now().getTime() + 60_000),
      hmacSignatureSecret: createHmac("sha256", "guessed-secret").update("altcha").digest("hex"),
    });
    expect((await submit(encode({ challenge: forged, solution: await solve(forged) }))).status).toBe(403);

    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "altcha-other");
    await other.console.put(`/workspaces/${other.wsId}/apps/${other.appId}/settings`, { verification: { provider: "altcha" } });
    const othersToken = await freshToken(other.appKey);
    expect((await submit(othersToken)).status).toBe(403);
    expect((await submit(othersToken, other.appKey)).status).toBe(201);
  });

  it("refuses a solution once its challenge has expired", async () => {
    const token = await freshToken();
    t.clock.advance(ALTCHA_CHALLENGE_TTL_MS + 1_000);
    expect(await submit(token)).toEqual({ status: 403, body: PLAIN_REFUSAL });
    expect((await submit(await freshToken())).status).toBe(201);
  });

  it("stops accepting outstanding challenges when the signing secret is rotated", async () => {
    const token = await freshToken();
    expect((await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/signing-secret`)).status).toBe(200);
    expect((await submit(token)).status).toBe(403);
  });

  it("serves the lighter challenge to ?solver=js, whose solution is accepted once", async () => {
    const url = `/api/v1/public/apps/${acme.appKey}/verification/challenge?solver=js`;
    const counters: number[] = [];
    let last: string | undefined;
    for (let i = 0; i < 6; i += 1) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      const challenge: Challenge = res.json();
      expect(challenge.parameters).toMatchObject({ algorithm: "PBKDF2/SHA-256", cost: 2, data: { appKey: acme.appKey } });
      const solution = await solve(challenge);
      counters.push(solution.counter);
      last = encode({ challenge, solution });
    }
    expect(Math.min(...counters)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...counters)).toBeLessThanOrEqual(10);
    expect(await submit(last)).toEqual({ status: 201, body: null });
    expect(await submit(last)).toEqual({ status: 403, body: PLAIN_REFUSAL });
  });

  it("answers 400 for a solver it does not know", async () => {
    const res = await t.app.inject({ url: `/api/v1/public/apps/${acme.appKey}/verification/challenge?solver=wasm` });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("validation_failed");
  });

  it("answers 404 app_not_found for unknown and private apps alike", async () => {
    const unknown = await t.app.inject({ url: "/api/v1/public/apps/app_nope/verification/challenge" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: "App not found", code: "app_not_found" });
    const hidden = await createWorkspaceWithApp(t.app, t.admin.authorization, "altcha-hidden");
    await hidden.console.put(`/workspaces/${hidden.wsId}/apps/${hidden.appId}/settings`, { allowPublic: false });
    const res = await t.app.inject({ url: `/api/v1/public/apps/${hidden.appKey}/verification/challenge` });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("app_not_found");
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ url: "/api/v1/openapi.json" })).json();
    const route = doc.paths["/api/v1/public/apps/{appKey}/verification/challenge"];
    expect(route.get.responses["200"].content["application/json"].schema.properties).toHaveProperty("signature");
  });
});

describe.each(testDialects())("verification in production on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { ...EASY, production: true });
    t.clock.advance(Date.now() - t.clock.now().getTime());
  });
  afterAll(() => t.close());

  it("requires the built-in altcha from an app without a provider", async () => {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "prod-co");
    expect(await submitThroughGuard(t.app.ctx, ws.appKey)).toEqual({ status: 403, body: PLAIN_REFUSAL });
    const challenge = (await t.app.inject({ url: `/api/v1/public/apps/${ws.appKey}/verification/challenge` })).json();
    const solution = await solveChallenge({ challenge, deriveKey });
    const verificationToken = encode({ challenge, solution });
    expect(await submitThroughGuard(t.app.ctx, ws.appKey, { verificationToken })).toEqual({ status: 201, body: null });
  });

  it("lets an exempt app through without a token", async () => {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "prod-exempt");
    await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { verification: { exempt: true } });
    expect((await submitThroughGuard(t.app.ctx, ws.appKey)).status).toBe(201);
  });
});
