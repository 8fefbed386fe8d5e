import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { signTestSsoToken, unsignedTestSsoToken } from "@tidings/testing/sso-tokens";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { userHash } from "./identity.js";

/** A correctly signed HS256 token around any payload bytes. */
function signedRaw(secret: string, payload: string): string {
  const head = `${Buffer.from('{"alg":"HS256"}').toString("base64url")}.${Buffer.from(payload).toString("base64url")}`;
  return `${head}.${createHmac("sha256", secret).update(head).digest("base64url")}`;
}

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;

describe.each(testDialects())("sign-in from the host app on %s", (dialect) => {
  let t: TestApp;
  let acme: Workspace;
  let other: Workspace;
  let requestId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "acme-sso");
    other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other-sso");
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { moderationPolicy: "none" });
    const proposed = await t.app.inject({
      method: "POST",
      url: "/api/v1/feature-requests",
      headers: { "x-user-token": "proposer" },
      payload: { appKey: acme.appKey, title: "Dark mode" },
    });
    requestId = proposed.json().featureRequestId;
  });
  afterAll(() => t.close());

  const sign = (claims: Parameters<typeof signTestSsoToken>[3] = {}, ws: Workspace = acme) => signTestSsoToken(ws.signingSecret, ws.appKey, t.clock.now(), claims);
  const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);

  const comment = (headers: Record<string, string>, body: Record<string, unknown> = { body: "Yes please" }) =>
    t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${requestId}/comments`, headers, payload: body });
  const comments = async () => (await t.app.inject({ url: `/api/v1/feature-requests/${requestId}/comments` })).json().comments as Array<Record<string, unknown>>;

  it("posts a comment under the host user's name and avatar, whatever name the form carries", async () => {
    const token = await sign({ sub: "42", name: "Ada Lovelace", email: "Ada@Example.com", picture: "https://cdn.example.com/ada.png" });
    const res = await comment({ "x-sso-token": token, "x-user-token": "anonymous-device" }, { body: "Yes please", authorName: "Mallory" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ authorName: "Ada Lovelace", authorAvatarUrl: "https://cdn.example.com/ada.png" });
    const shown = (await comments()).find((c) => c.id === res.json().id);
    expect(shown).toMatchObject({ authorName: "Ada Lovelace", authorAvatarUrl: "https://cdn.example.com/ada.png" });
    // The public profile of the author shows the host's name and avatar too.
    const profile = await t.app.inject({ url: `/api/v1/users/${String(shown?.authorClerkId)}/profile` });
    expect(profile.json().profile).toMatchObject({ displayName: "Ada Lovelace", avatarUrl: "https://cdn.example.com/ada.png" });
  });

  it("maps one host user to one end user per app, separate from any X-User-Token", async () => {
    const first = await comment({ "x-sso-token": await sign({ sub: "7", name: "Grace" }) });
    t.clock.advance(60_000);
    const second = await comment({ "x-sso-token": await sign({ sub: "7", name: "Grace Hopper" }), "x-user-token": "another-device" });
    expect(second.json().authorClerkId).toBe(first.json().authorClerkId);
    // A caller who merely claims the id as a token is someone else.
    const impostor = await comment({ "x-user-token": "7" });
    expect(impostor.json().authorClerkId).not.toBe(first.json().authorClerkId);
    const impostorSpaced = await comment({ "x-user-token": "sso 7" });
    expect(impostorSpaced.statusCode).toBe(400);
    expect(impostorSpaced.json().code).toBe("invalid_user_token");
  });

  it("marks the listing as varying with the SSO token, and shows the SSO user's own vote", async () => {
    const token = await sign({ sub: "reader-1" });
    await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${requestId}/vote`, headers: { "x-sso-token": token }, payload: {} });
    const res = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${acme.appKey}`, headers: { "x-sso-token": token } });
    expect(res.headers.vary).toContain("X-SSO-Token");
    expect(res.headers["cache-control"]).toContain("no-store");
    expect(res.json().requests[0]).toMatchObject({ id: requestId, hasVoted: true });
    const anonymous = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${acme.appKey}` });
    expect(anonymous.headers.vary).toContain("X-SSO-Token");
    expect(anonymous.json().requests[0].hasVoted).toBe(false);
    await t.app.inject({ method: "DELETE", url: `/api/v1/feature-requests/${requestId}/vote`, headers: { "x-sso-token": token }, payload: {} });
  });

  it("counts an SSO user's vote once across devices and shows it as theirs", async () => {
    const vote = async (token: string) =>
      t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${requestId}/vote`, headers: { "x-sso-token": token, "x-user-token": `device-${token.length}` }, payload: {} });
    const before = (await t.app.inject({ url: `/api/v1/feature-requests?appKey=${acme.appKey}` })).json().requests[0].voteCount;
    expect((await vote(await sign({ sub: "voter-9" }))).json()).toMatchObject({ voted: true, voteCount: before + 1 });
    const detail = await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${requestId}`);
    expect(detail.body.voters[0]).toMatchObject({ displayName: null, avatarUrl: null });
    t.clock.advance(1000);
    expect((await vote(await sign({ sub: "voter-9", name: "Nine", picture: "https://cdn.example.com/9.png" }))).json()).toMatchObject({ voted: false, voteCount: before });
    // The team sees who voted, by the host's name and avatar.
    await vote(await sign({ sub: "voter-9", name: "Nine", picture: "https://cdn.example.com/9.png" }));
    const named = await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${requestId}`);
    expect(named.body.voters[0]).toMatchObject({ displayName: "Nine", avatarUrl: "https://cdn.example.com/9.png" });
    await vote(await sign({ sub: "voter-9" }));
  });

  const refusals: Array<[string, () => Promise<string>, number, string]> = [
    ["forged with another secret", async () => sign({}, { ...acme, signingSecret: other.signingSecret }), 401, "sso_signature_mismatch"],
    ["for another app", async () => sign({ aud: other.appKey }), 403, "sso_wrong_audience"],
    ["whose audience list names only other apps", async () => sign({ aud: [other.appKey, "app_elsewhere"] }), 403, "sso_wrong_audience"],
    ["with an empty audience list", async () => sign({ aud: [] }), 403, "sso_wrong_audience"],
    ["without an audience", async () => sign({ aud: undefined }), 401, "invalid_sso_token"],
    ["expired", async () => sign({ iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 }), 401, "sso_token_expired"],
    ["living longer than a day", async () => sign({ exp: nowSeconds() + 2 * 86_400 }), 401, "sso_token_lifetime_too_long"],
    ["issued in the future", async () => sign({ iat: nowSeconds() + 3600, exp: nowSeconds() + 7200 }), 401, "sso_token_lifetime_too_long"],
    ["unsigned (alg: none)", async () => unsignedTestSsoToken(acme.appKey, t.clock.now()), 401, "invalid_sso_token"],
    ["without a subject", async () => sign({ sub: undefined }), 401, "invalid_sso_token"],
    ["with a numeric subject", async () => sign({ sub: 42 as unknown as string }), 401, "invalid_sso_token"],
    ["with a picture that is not https", async () => sign({ picture: "javascript:alert(1)" }), 401, "invalid_sso_token"],
    ["with an http picture", async () => sign({ picture: "http://cdn.example.com/a.png" }), 401, "invalid_sso_token"],
    ["with an email that is not an address", async () => sign({ email: "nobody" }), 401, "invalid_sso_token"],
    ["not a JWT at all", async () => "not-a-token", 401, "invalid_sso_token"],
    ["tampered with after signing", async () => `${(await sign()).split(".")[0]}.e30.${(await sign()).split(".")[2]}`, 401, "sso_signature_mismatch"],
    ["whose signed payload is not JSON", async () => signedRaw(acme.signingSecret, "not json"), 401, "invalid_sso_token"],
  ];
  it.each(refusals)("refuses a token %s and writes nothing", async (_name, make, status, code) => {
    const count = (await comments()).length;
    const res = await comment({ "x-sso-token": await make(), "x-user-token": "device" });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
    expect((await comments()).length).toBe(count);
  });

  it("reads with a token that no longer verifies as an anonymous caller, so an open page keeps its board", async () => {
    const stale = await sign({ sub: "reader-2", iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 });
    const list = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${acme.appKey}`, headers: { "x-sso-token": stale } });
    expect(list.statusCode).toBe(200);
    expect(list.json().requests[0]).toMatchObject({ id: requestId, hasVoted: false });
    const read = await t.app.inject({ url: `/api/v1/feature-requests/${requestId}/comments`, headers: { "x-sso-token": "garbage" } });
    expect(read.statusCode).toBe(200);
    const write = await comment({ "x-sso-token": stale });
    expect(write.json().code).toBe("sso_token_expired");
  });

  it("scopes an Idempotency-Key to the signed-in user: another user's post is not a replay, a re-signed token's is", async () => {
    const post = async (token: string) =>
      comment({ "x-sso-token": token, "x-user-token": "shared-device", "idempotency-key": "key-sso-1" }, { body: "Once" });
    const first = await post(await sign({ sub: "alice", name: "Alice" }));
    const other = await post(await sign({ sub: "bob", name: "Bob" }));
    expect(other.headers["idempotent-replayed"]).toBeUndefined();
    expect([first.json().authorName, other.json().authorName]).toEqual(["Alice", "Bob"]);
    t.clock.advance(5000);
    const retry = await post(await sign({ sub: "alice", name: "Alice" }));
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.json().id).toBe(first.json().id);
  });

  it("accepts an audience list that names the app among others (RFC 7519), as docs/sso.md says", async () => {
    const token = await sign({ sub: "multi-aud", name: "Aud List", aud: ["app_elsewhere", acme.appKey] });
    const res = await comment({ "x-sso-token": token, "x-user-token": "device" });
    expect(res.statusCode).toBe(201);
    expect((await comments()).at(-1)).toMatchObject({ authorName: "Aud List" });
  });

  it("refuses an HS512 token: only HS256 is accepted", async () => {
    const { SignJWT } = await import("jose");
    const iat = nowSeconds();
    const token = await new SignJWT({ sub: "1", aud: acme.appKey, iat, exp: iat + 600 })
      .setProtectedHeader({ alg: "HS512" })
      .sign(new TextEncoder().encode(acme.signingSecret));
    const res = await comment({ "x-sso-token": token });
    expect(res.json()).toMatchObject({ code: "invalid_sso_token" });
  });

  it("refuses a token once it has expired, though it worked before", async () => {
    const token = await sign({ sub: "replayer", exp: nowSeconds() + 120 });
    expect((await comment({ "x-sso-token": token })).statusCode).toBe(201);
    t.clock.advance(181_000);
    const replay = await comment({ "x-sso-token": token });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe("sso_token_expired");
  });

  describe("requireIdentifiedUsers", () => {
    let strict: Workspace;
    let strictRequest: string;

    beforeAll(async () => {
      strict = await createWorkspaceWithApp(t.app, t.admin.authorization, "strict-sso");
      const settings = await strict.console.put(`/workspaces/${strict.wsId}/apps/${strict.appId}/settings`, {
        moderationPolicy: "none",
        requireIdentifiedUsers: true,
      });
      expect(settings.body.requireIdentifiedUsers).toBe(true);
      const proposed = await t.app.inject({
        method: "POST",
        url: "/api/v1/feature-requests",
        headers: { "x-sso-token": await sign({ sub: "founder" }, strict) },
        payload: { appKey: strict.appKey, title: "Calendar sync" },
      });
      expect(proposed.statusCode).toBe(201);
      strictRequest = proposed.json().featureRequestId;
    });

    it("refuses anonymous and unverified host ids on every write, with nothing written", async () => {
      for (const headers of [{}, { "x-user-token": "user-1" }]) {
        const writes = [
          await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers, payload: { appKey: strict.appKey, title: "Anonymous idea" } }),
          await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${strictRequest}/vote`, headers, payload: {} }),
          await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${strictRequest}/comments`, headers, payload: { body: "Hi" } }),
          await t.app.inject({ method: "POST", url: "/api/v1/feedback", headers, payload: { appKey: strict.appKey, title: "Bug" } }),
        ];
        for (const res of writes) {
          expect(res.statusCode, res.body).toBe(403);
          expect(res.json().code).toBe("identified_user_required");
        }
      }
      const list = (await t.app.inject({ url: `/api/v1/feature-requests?appKey=${strict.appKey}` })).json();
      expect(list.requests).toHaveLength(1);
      expect(list.requests[0]).toMatchObject({ voteCount: 0, commentCount: 0 });
    });

    it("accepts SSO users and X-User-Hash identified callers, and still lets anyone read", async () => {
      const sso = await t.app.inject({
        method: "POST",
        url: `/api/v1/feature-requests/${strictRequest}/vote`,
        headers: { "x-sso-token": await sign({ sub: "member" }, strict) },
        payload: {},
      });
      expect(sso.json()).toMatchObject({ voted: true, voteCount: 1 });
      const hashed = await t.app.inject({
        method: "POST",
        url: `/api/v1/feature-requests/${strictRequest}/comments`,
        headers: { "x-user-token": "user-2", "x-user-hash": userHash(strict.signingSecret, "user-2") },
        payload: { body: "Me too" },
      });
      expect(hashed.statusCode).toBe(201);
      expect((await t.app.inject({ url: `/api/v1/feature-requests/${strictRequest}/comments` })).json().total).toBe(1);
    });
  });
});
