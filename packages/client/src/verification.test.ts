import { createChallenge, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { describe, expect, it, vi } from "vitest";
import { NetworkException, VerificationRequiredException } from "./errors.js";
import type { FetchLike } from "./request.js";
import { client, recorder, requests, type Seen } from "./testing/recorder.js";

/**
 * A fake intake server: the config names `verification`, challenges are signed like the real
 * server's, and intake answers 201 for a verified unused token when verification is required, or
 * for a caller sending a user hash or SSO token when identified users are trusted, else 403.
 */
function altchaServer(verification: { provider: string; required: boolean; trustIdentifiedUsers?: boolean }) {
  const secrets = { hmacSignatureSecret: "sig", hmacKeySignatureSecret: "key" };
  const spent = new Set<string>();
  const verify = async (token: unknown) => {
    let decoded: Pick<Parameters<typeof verifySolution>[0], "challenge" | "solution">;
    try {
      decoded = JSON.parse(atob(String(token)));
    } catch {
      return false;
    }
    const { challenge, solution } = decoded;
    if (spent.has(challenge.signature!)) return false;
    spent.add(challenge.signature!);
    return (await verifySolution({ challenge, solution, deriveKey, ...secrets })).verified;
  };
  return recorder(async (s) => {
    const path = s.url.pathname;
    if (path.includes("/public/config/")) return Response.json({ appKey: "app_demo", verification });
    if (path.endsWith("/verification/challenge")) {
      return Response.json(await createChallenge({ algorithm: "PBKDF2/SHA-256", cost: 1, counter: 9, deriveKey, data: { appKey: "app_demo" }, ...secrets }));
    }
    const token = (s.body as { verificationToken?: unknown }).verificationToken;
    const identified = s.headers["X-User-Hash"] !== undefined || s.headers["X-SSO-Token"] !== undefined;
    if (verification.trustIdentifiedUsers === true && identified) return Response.json({ featureRequestId: "fr_1", pending: false, submissionId: "s1" }, { status: 201 });
    if (!verification.required || (verification.provider === "altcha" && (await verify(token)))) return Response.json({ featureRequestId: "fr_1", pending: true, submissionId: "s1" }, { status: 201 });
    return Response.json({ error: "Human verification is required", code: "verification_required" }, { status: 403 });
  });
}

const sentToken = (s: Seen | undefined) => (s?.body as { verificationToken?: string } | undefined)?.verificationToken;

describe("FeedbackClient verification", () => {
  it("takes the draft's verification token over the provider's, and omits a blank one", async () => {
    const { seen, fetch } = recorder();
    const provider = vi.fn(async () => "from-provider");
    const c = client(fetch, { verificationTokenProvider: provider });
    await c.submitFeatureRequest({ title: "Dark mode", details: "please", verificationToken: "from-draft" });
    await c.submitFeatureRequest({ title: "Dark mode" });
    const blank = client(fetch, { verificationTokenProvider: () => undefined });
    await blank.submitFeatureRequest({ title: "Dark mode" });
    expect(seen.map((s) => (s.body as Record<string, unknown>).verificationToken)).toEqual(["from-draft", "from-provider", undefined]);
    expect("verificationToken" in (seen[2]!.body as object)).toBe(false);
    expect(seen[0]!.body).toMatchObject({ appKey: "app_demo", title: "Dark mode", description: "please", requesterToken: "tok-1" });
  });
});

describe("FeedbackClient built-in altcha verification", () => {
  const altcha = { provider: "altcha", required: true };

  it("solves a challenge up front when the config it read requires altcha", async () => {
    const { seen, fetch } = altchaServer(altcha);
    const c = client(fetch);
    await c.getConfig();
    expect(await c.submitFeatureRequest({ title: "Dark mode" })).toEqual({ featureRequestId: "fr_1", pending: true, submissionId: "s1" });
    await c.submitFeedback({ title: "Crash", details: "on start" });
    expect(requests(seen)).toEqual([
      "GET /public/config/app_demo",
      "GET /public/apps/app_demo/verification/challenge",
      "POST /feature-requests",
      "GET /public/apps/app_demo/verification/challenge",
      "POST /feedback",
    ]);
    expect(sentToken(seen[2])).not.toBe(sentToken(seen[4]));
  });

  it("without Web Crypto (React Native on Hermes), asks for the plain-JavaScript challenge and sends its solution", async () => {
    const { seen, fetch: server } = altchaServer(altcha);
    const real = globalThis.crypto;
    const hide = () => vi.stubGlobal("crypto", { getRandomValues: real.getRandomValues.bind(real) });
    // Only the device lacks Web Crypto: the fake server (altcha-lib) has it back while it answers.
    const device: FetchLike = async (input, init) => {
      vi.unstubAllGlobals();
      try {
        return await server(input, init);
      } finally {
        hide();
      }
    };
    hide();
    try {
      const c = client(device);
      await c.getConfig();
      expect(await c.submitFeatureRequest({ title: "Dark mode" })).toMatchObject({ featureRequestId: "fr_1" });
    } finally {
      vi.unstubAllGlobals();
    }
    expect(seen.map((s) => `${s.method} ${s.url.pathname.replace("/api/v1", "")}${s.url.search}`)).toEqual([
      "GET /public/config/app_demo",
      "GET /public/apps/app_demo/verification/challenge?solver=js",
      "POST /feature-requests",
    ]);
  });

  it("without a config read, answers a verification refusal by reading the config and sending once more with a token", async () => {
    const { seen, fetch } = altchaServer(altcha);
    await client(fetch).submitFeedback({ title: "Crash", details: "on start" });
    expect(requests(seen)).toEqual(["POST /feedback", "GET /public/config/app_demo", "GET /public/apps/app_demo/verification/challenge", "POST /feedback"]);
    expect(sentToken(seen[0])).toBeUndefined();
    expect(typeof sentToken(seen[3])).toBe("string");
  });

  it("under an idempotency key, reads the config first, so the key's first answer is not a verification refusal", async () => {
    const { seen, fetch } = altchaServer(altcha);
    const c = client(fetch);
    await c.submitFeedback({ title: "Crash", details: "on start" }, { idempotencyKey: "k" });
    await c.submitFeatureRequest({ title: "Dark mode" }, { idempotencyKey: "k2" });
    expect(requests(seen)).toEqual([
      "GET /public/config/app_demo",
      "GET /public/apps/app_demo/verification/challenge",
      "POST /feedback",
      "GET /public/apps/app_demo/verification/challenge",
      "POST /feature-requests",
    ]);
    expect(seen.filter((s) => s.method === "POST").map((s) => s.headers["Idempotency-Key"])).toEqual(["k", "k2"]);
  });

  it("under an idempotency key, fails as unreachable at once when the config cannot be read for lack of a connection", async () => {
    const tried: string[] = [];
    const c = client(async (input, init) => {
      tried.push(`${init.method} ${new URL(input).pathname}`);
      throw new TypeError("fetch failed");
    });
    await expect(c.submitFeedback({ title: "Crash", details: "on start" }, { idempotencyKey: "k" })).rejects.toBeInstanceOf(NetworkException);
    expect(tried).toEqual(["GET /api/v1/public/config/app_demo"]);
  });

  it("lets a draft token and an explicit provider win: no challenge is fetched, the refusal surfaces", async () => {
    const { seen, fetch } = altchaServer(altcha);
    const c = client(fetch);
    await c.getConfig();
    await expect(c.submitFeatureRequest({ title: "x", verificationToken: "from-draft" })).rejects.toBeInstanceOf(VerificationRequiredException);
    const explicit = client(fetch, { verificationTokenProvider: () => undefined });
    await explicit.getConfig();
    await expect(explicit.submitFeatureRequest({ title: "x" })).rejects.toBeInstanceOf(VerificationRequiredException);
    expect(requests(seen)).toEqual(["GET /public/config/app_demo", "POST /feature-requests", "GET /public/config/app_demo", "POST /feature-requests"]);
    expect(seen.map(sentToken)).toEqual([undefined, "from-draft", undefined, undefined]);
  });

  it("solves nothing for a user the host vouches for when the app trusts identified users", async () => {
    const trusting = { ...altcha, trustIdentifiedUsers: true };
    const { seen, fetch } = altchaServer(trusting);
    const hashed = client(fetch, { userToken: "user-42", userHash: "ab".repeat(32) });
    await hashed.getConfig();
    expect(await hashed.submitFeedback({ title: "Crash", details: "on start" })).toMatchObject({ submissionId: "s1" });
    const sso = client(fetch, { ssoToken: "header.payload.signature" });
    await sso.getConfig();
    await sso.submitFeatureRequest({ title: "Dark mode" });
    expect(requests(seen)).toEqual(["GET /public/config/app_demo", "POST /feedback", "GET /public/config/app_demo", "POST /feature-requests"]);
    expect(seen.map(sentToken)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("still solves for an anonymous caller, and for a user without a hash, when the app trusts identified users", async () => {
    const { seen, fetch } = altchaServer({ ...altcha, trustIdentifiedUsers: true });
    const c = client(fetch, { userToken: "user-42" });
    await c.getConfig();
    await c.submitFeedback({ title: "Crash", details: "on start" });
    expect(requests(seen)).toEqual(["GET /public/config/app_demo", "GET /public/apps/app_demo/verification/challenge", "POST /feedback"]);
    expect(typeof sentToken(seen[2])).toBe("string");
  });

  it("solves for an identified user when the app does not trust identified users", async () => {
    const { seen, fetch } = altchaServer({ ...altcha, trustIdentifiedUsers: false });
    const c = client(fetch, { userToken: "user-42", userHash: "ab".repeat(32) });
    await c.getConfig();
    await c.submitFeedback({ title: "Crash", details: "on start" });
    expect(requests(seen)).toEqual(["GET /public/config/app_demo", "GET /public/apps/app_demo/verification/challenge", "POST /feedback"]);
  });

  it.each([
    ["another provider is required", { provider: "turnstile", required: true }],
    ["verification is off", { provider: "none", required: false }],
  ])("solves nothing when %s", async (_case, verification) => {
    const { seen, fetch } = altchaServer(verification);
    const c = client(fetch);
    const outcome = await c.submitFeatureRequest({ title: "x" }).catch((e: unknown) => e);
    expect(requests(seen).filter((r) => r.includes("challenge"))).toEqual([]);
    if (verification.required) expect(outcome).toBeInstanceOf(VerificationRequiredException);
    else expect(outcome).toMatchObject({ featureRequestId: "fr_1" });
  });
});
