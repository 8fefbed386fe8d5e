import { createChallenge, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FeedbackClient, type FeedbackClientOptions } from "./client.js";
import { NetworkException, VerificationRequiredException, type RequestTimeoutException } from "./errors.js";
import type { FetchLike } from "./request.js";
import { memoryStorage } from "./storage.js";

/** Node's process, for its `unhandledRejection` event (this package's tests see no Node types). */
const nodeProcess = (globalThis as unknown as { process: { on(event: "unhandledRejection", listener: (reason: unknown) => void): void; off(event: "unhandledRejection", listener: (reason: unknown) => void): void } }).process;

interface Seen {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Records requests; answers with `reply` (JSON 200 by default). Used for wire-shape checks only. */
function recorder(reply: (seen: Seen) => Response | Promise<Response> = () => Response.json({})) {
  const seen: Seen[] = [];
  const fetch: FetchLike = async (input, init) => {
    const body = typeof init.body === "string" ? JSON.parse(init.body) : init.body;
    const entry = { url: new URL(input), method: init.method ?? "GET", headers: init.headers as Record<string, string>, body };
    seen.push(entry);
    return reply(entry);
  };
  return { seen, fetch };
}

function client(fetch: FetchLike, options: Partial<FeedbackClientOptions> = {}) {
  return new FeedbackClient({ baseUrl: "https://api.example.com//", appKey: "app_demo", fetch, storage: memoryStorage(), userToken: "tok-1", ...options });
}

afterEach(() => vi.useRealTimers());

describe("FeedbackClient", () => {
  it("strips trailing slashes, defaults its options, and encodes the app key in paths", async () => {
    const { seen, fetch } = recorder();
    const c = client(fetch, { appKey: "app/x" });
    expect(c.baseUrl).toBe("https://api.example.com");
    expect([c.timeoutMs, c.uploadTimeoutMs, c.tokenTransport, c.defaultPlatform]).toEqual([15_000, 60_000, "header", "universal"]);
    await c.getConfig();
    expect(seen[0]!.url.href).toBe("https://api.example.com/api/v1/public/config/app%2Fx");
  });

  it.each([
    ["header", "tok-1", null],
    ["query", undefined, "tok-1"],
    ["both", "tok-1", "tok-1"],
  ] as const)("sends the listing token per tokenTransport %s", async (tokenTransport, header, query) => {
    const { seen, fetch } = recorder(() => Response.json({ requests: [], total: 0, hasMore: false, nextCursor: null }));
    await client(fetch, { tokenTransport }).listFeatureRequests({ q: "  dark ", versionId: "v1" });
    const { url, headers } = seen[0]!;
    expect(headers["X-User-Token"]).toBe(header);
    expect(url.searchParams.get("userToken")).toBe(query);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ appKey: "app_demo", q: "dark", versionId: "v1", limit: "50", offset: "0" });
  });

  it("reads one request and similar titles with the app key and the user's token", async () => {
    const { seen, fetch } = recorder((s) => Response.json(s.url.pathname.endsWith("/similar") ? { requests: [{ id: "fr_1" }] } : { id: "fr_1" }));
    const c = client(fetch);
    expect(await c.getFeatureRequest("fr_1")).toEqual({ id: "fr_1" });
    expect(await c.findSimilarFeatureRequests("  dark mo ", { limit: 3 })).toEqual([{ id: "fr_1" }]);
    expect(await c.findSimilarFeatureRequests("   ")).toEqual([]);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.url.pathname).toBe("/api/v1/feature-requests/fr_1");
    expect(seen[0]!.url.searchParams.get("appKey")).toBe("app_demo");
    expect(Object.fromEntries(seen[1]!.url.searchParams)).toEqual({ appKey: "app_demo", title: "dark mo", limit: "3" });
    expect(seen.map((s) => s.headers["X-User-Token"])).toEqual(["tok-1", "tok-1"]);
  });

  it("reads a profile with the app key by default, and without it when asked", async () => {
    const { seen, fetch } = recorder(() => Response.json({ profile: {}, recentComments: [] }));
    const c = client(fetch);
    await c.getUserProfile("u_1");
    await c.getUserProfile("u_1", { withAppKey: false });
    expect(seen.map((s) => s.url.pathname + s.url.search)).toEqual(["/api/v1/users/u_1/profile?appKey=app_demo", "/api/v1/users/u_1/profile"]);
  });

  it("sends X-User-Hash next to the token, computed per token when given a function", async () => {
    const { seen, fetch } = recorder();
    await client(fetch, { userHash: (token) => `hash-of-${token}` }).toggleVote("fr_1");
    expect(seen[0]!.headers).toMatchObject({ "X-User-Token": "tok-1", "X-User-Hash": "hash-of-tok-1" });
    expect(seen[0]!.body).toEqual({ appKey: "app_demo" });
  });

  it("sends the SSO token on every request, reads and writes alike, and follows setSsoToken", async () => {
    const { seen, fetch } = recorder(() => Response.json({ requests: [], total: 0, hasMore: false, nextCursor: null }));
    let current = "jwt-1";
    const c = client(fetch, { ssoToken: async () => current });
    await c.getConfig();
    await c.listFeatureRequests();
    current = "jwt-2";
    await c.toggleVote("fr_1");
    c.setSsoToken("jwt-3");
    await c.getConfig();
    c.setSsoToken(null);
    await c.getConfig();
    expect(seen.map((s) => s.headers["X-SSO-Token"])).toEqual(["jwt-1", "jwt-1", "jwt-2", "jwt-3", undefined]);
    const blank = recorder();
    await client(blank.fetch, { ssoToken: "  " }).getConfig();
    expect(blank.seen[0]!.headers).not.toHaveProperty("X-SSO-Token");
  });

  it("follows and unfollows a request with the user's token and the address, if any", async () => {
    const { seen, fetch } = recorder(() => Response.json({ following: false, pending: true }));
    const c = client(fetch, { ssoToken: "jwt" });
    expect(await c.followFeatureRequest("fr/1", { email: " ada@example.com " })).toEqual({ following: false, pending: true });
    await c.unfollowFeatureRequest("fr/1");
    expect(seen.map((s) => [s.method, s.url.pathname, s.body, s.headers["X-User-Token"], s.headers["X-SSO-Token"]])).toEqual([
      ["POST", "/api/v1/feature-requests/fr%2F1/subscription", { email: "ada@example.com" }, "tok-1", "jwt"],
      ["DELETE", "/api/v1/feature-requests/fr%2F1/subscription", {}, "tok-1", "jwt"],
    ]);
  });

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

  it("forwards the draft or default platform on submit without checking any allowlist", async () => {
    const { seen, fetch } = recorder(() => Response.json({ submissionId: "s1" }, { status: 201 }));
    const c = client(fetch, { defaultPlatform: "android" });
    await c.submitFeedback({ title: "Crash", details: "on start" });
    await c.submitFeedback({ title: "Crash", details: "on start", platform: "macos" });
    expect(seen.map((s) => (s.body as { platform: string }).platform)).toEqual(["android", "macos"]);
    expect((seen[0]!.body as { metadata: Record<string, string> }).metadata.sdk).toMatch(/^tidings-client\//);
  });

  it("uploads pending attachments before submitting feedback: images and objects to their endpoints", async () => {
    const { seen, fetch } = recorder((s) =>
      s.url.pathname.startsWith("/api/v1/uploads/")
        ? Response.json({ key: `k${s.url.pathname.length}`, url: "https://cdn/x", kind: s.url.pathname.endsWith("images") ? "image" : "file" })
        : Response.json({ submissionId: "s1" }),
    );
    const descriptor = { kind: "image", key: "pre", url: "https://cdn/pre" };
    await client(fetch).submitFeedback({
      title: "t",
      details: "d",
      attachments: [descriptor, { file: new Blob(["png"]), filename: "a.png", mimeType: "image/png" }, { file: new Uint8Array([1]), filename: "a.log", mimeType: "text/plain" }],
    });
    expect(seen.map((s) => s.url.pathname)).toEqual(["/api/v1/uploads/images", "/api/v1/uploads/objects", "/api/v1/feedback"]);
    const form = seen[0]!.body as FormData;
    expect(form.get("appKey")).toBe("app_demo");
    expect((form.get("file") as File).name).toBe("a.png");
    expect((seen[2]!.body as { attachments: unknown[] }).attachments).toHaveLength(3);
    expect((seen[2]!.body as { attachments: unknown[] }).attachments[0]).toEqual(descriptor);
  });

  it("gives uploads their own budget, overridable per call", async () => {
    vi.useFakeTimers();
    const hang: FetchLike = (_url, init) => new Promise((_r, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted"))));
    const c = client(hang, { uploadTimeoutMs: 5000 });
    const upload = c.uploadAttachment({ file: new Blob(["x"]), filename: "x.png", mimeType: "image/png" }).catch((e: unknown) => e);
    const fast = c.uploadAttachment({ file: new Blob(["x"]), filename: "x.png", mimeType: "image/png", timeoutMs: 100 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect(((await fast) as RequestTimeoutException).timeoutMs).toBe(100);
    await vi.advanceTimersByTimeAsync(4900);
    expect(((await upload) as RequestTimeoutException).timeoutMs).toBe(5000);
  });

  it("signs user attributes with sdkSigningSecret at the injected time", async () => {
    const { seen, fetch } = recorder(() => Response.json({ ok: true, updatedAt: "2025-01-01T00:00:00.000Z" }));
    const timers = { now: () => 1758000000_000, setTimeout: () => 0, clearTimeout: () => undefined };
    const c = client(fetch, {
      appKey: "app_demo12345",
      userToken: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
      sdkSigningSecret: "cpt_sk_test_secret_0123456789abcdef",
      timers,
    });
    await c.reportUserAttributes({ isPaying: true, plan: "pro", mrr: 299.5, currency: "USD" });
    expect(seen[0]!.method).toBe("PUT");
    expect(seen[0]!.body).toEqual({
      isPaying: true,
      plan: "pro",
      mrr: 299.5,
      currency: "USD",
      timestamp: 1758000000,
      signature: "59bc1177751f4c36f9caeed8c763cde9ee18835196acd1b6d4ce3b1ea2dc0273",
    });
  });

  it("uses the per-call token over the explicit one, and the explicit one over the store", async () => {
    const { seen, fetch } = recorder();
    const c = client(fetch);
    await c.tokens.setToken("store-token");
    await c.postComment("fr_1", { body: " hi " }, { userToken: "call-token" });
    await c.postComment("fr_1", { body: "hi" });
    expect(seen.map((s) => s.headers["X-User-Token"])).toEqual(["call-token", "tok-1"]);
    expect(seen[0]!.body).toEqual({ body: "hi" });
  });

  it("prepares the changelog overlay: null when the flag is off or the newest release was seen", async () => {
    let features: Record<string, boolean> = {};
    const { fetch } = recorder((s) =>
      s.url.pathname.includes("/config/")
        ? Response.json({ sdk: { features, changelogOverlay: { entryCount: 2 } } })
        : Response.json({
            entries: [
              { id: "c1", title: "Old", body: "", versionLabel: "1.0", publishedAt: "2024-01-01T00:00:00Z" },
              { id: "c2", title: "New", body: "", versionLabel: "1.1", publishedAt: "2024-02-01T00:00:00Z" },
              { id: "c3", title: "Oldest", body: "", versionLabel: null, publishedAt: "2023-01-01T00:00:00Z" },
            ],
          }),
    );
    const c = client(fetch);
    const overlay = await c.prepareChangelogOverlay({ onlyIfUnseen: true });
    expect(overlay?.latestKey).toBe("1.1");
    expect(overlay?.entries.map((e) => e.id)).toEqual(["c2", "c1"]);
    await c.seenChangelogs.markSeen("1.1");
    expect(await c.prepareChangelogOverlay({ onlyIfUnseen: true })).toBeNull();
    expect(await c.prepareChangelogOverlay()).not.toBeNull();
    features = { changelog: false };
    expect(await c.prepareChangelogOverlay()).toBeNull();
  });

  it("waits for the stored token when no explicit token is given", async () => {
    const { seen, fetch } = recorder();
    const c = new FeedbackClient({ baseUrl: "https://api", appKey: "app_demo", fetch, storage: memoryStorage() });
    await c.toggleVote("fr_1");
    expect(seen[0]!.headers["X-User-Token"]).toBe(await c.tokens.getToken());
  });

  it("sends the caller's Idempotency-Key on every POST method, and none on reads, deletes or blank keys", async () => {
    const { seen, fetch } = recorder((s) =>
      s.url.pathname.startsWith("/api/v1/uploads/") ? Response.json({ key: "k1", url: "https://cdn/k1" }) : Response.json({ submissionId: "s1" }),
    );
    const c = client(fetch);
    const idempotencyKey = "key-1";
    await c.submitFeedback({ title: "Crash", details: "on start" }, { idempotencyKey });
    await c.submitFeatureRequest({ title: "Dark mode" }, { idempotencyKey });
    await c.postComment("fr_1", { body: "hi" }, { idempotencyKey });
    await c.toggleVote("fr_1", { idempotencyKey });
    await c.uploadAttachment({ file: new Blob(["png"]), filename: "a.png", mimeType: "image/png" }, { idempotencyKey });
    await c.subscribeToChangelog("a@example.com", { idempotencyKey });
    await c.unsubscribeFromChangelog("a@example.com", { idempotencyKey });
    const keyed = seen.splice(0).filter((s) => !s.url.pathname.includes("/public/config/"));
    await c.removeVote("fr_1", { idempotencyKey } as object);
    await c.getConfig({ idempotencyKey } as object);
    await c.submitFeedback({ title: "Crash", details: "on start" }, { idempotencyKey: "  " });
    await c.submitFeedback({ title: "Crash", details: "on start" });
    expect(keyed.map((s) => `${s.method} ${s.url.pathname} ${s.headers["Idempotency-Key"]}`)).toEqual([
      "POST /api/v1/feedback key-1",
      "POST /api/v1/feature-requests key-1",
      "POST /api/v1/feature-requests/fr_1/comments key-1",
      "POST /api/v1/feature-requests/fr_1/vote key-1",
      "POST /api/v1/uploads/images key-1",
      "POST /api/v1/public/apps/app_demo/changelog/subscribe key-1",
      "POST /api/v1/public/apps/app_demo/changelog/unsubscribe key-1",
    ]);
    expect(seen.map((s) => `${s.method} ${s.headers["Idempotency-Key"]}`)).toEqual(["DELETE undefined", "GET undefined", "POST undefined", "POST undefined"]);
  });

  it("sends the draft's submittedAt, so a retry under the same key repeats the same body", async () => {
    const { seen, fetch } = recorder(() => Response.json({ submissionId: "s1" }));
    let now = Date.parse("2025-03-01T10:00:00Z");
    const c = client(fetch, { timers: { now: () => now, setTimeout: () => 0, clearTimeout: () => undefined } });
    await c.submitFeedback({ title: "Crash", details: "on start", submittedAt: "2025-02-28T09:00:00.000Z" }, { idempotencyKey: "k" });
    now += 60_000;
    await c.submitFeedback({ title: "Crash", details: "on start", submittedAt: "2025-02-28T09:00:00.000Z" }, { idempotencyKey: "k" });
    await c.submitFeedback({ title: "Crash", details: "on start" });
    const posts = seen.filter((s) => s.method === "POST");
    expect(posts[1]!.body).toEqual(posts[0]!.body);
    expect(posts.map((s) => (s.body as { metadata: Record<string, string> }).metadata.submittedAt)).toEqual([
      "2025-02-28T09:00:00.000Z",
      "2025-02-28T09:00:00.000Z",
      "2025-03-01T10:01:00.000Z",
    ]);
  });

  it("requires a base URL and an app key", () => {
    expect(() => new FeedbackClient({ baseUrl: "", appKey: "app_x" })).toThrow(TypeError);
    expect(() => new FeedbackClient({ baseUrl: "https://x", appKey: " " })).toThrow(TypeError);
  });
});

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

const requests = (seen: Seen[]) => seen.map((s) => `${s.method} ${s.url.pathname.replace("/api/v1", "")}`);
const sentToken = (s: Seen | undefined) => (s?.body as { verificationToken?: string } | undefined)?.verificationToken;

describe("FeedbackClient without a secure random source", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("rejects the call that needs a user token with an error naming react-native-get-random-values, and leaves nothing unhandled", async () => {
    vi.stubGlobal("crypto", undefined);
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    nodeProcess.on("unhandledRejection", record);
    try {
      const { seen, fetch } = recorder();
      const c = client(fetch, { userToken: undefined, warn: () => undefined });
      await new Promise((resolve) => setTimeout(resolve, 0));
      await expect(c.listFeatureRequests()).rejects.toThrow(/install react-native-get-random-values/);
      expect(seen).toEqual([]);
      // Calls that need no token still work, and one given per call is used as is.
      await c.getConfig();
      await c.listFeatureRequests({ userToken: "host-user" });
      expect(requests(seen)).toEqual(["GET /public/config/app_demo", "GET /feature-requests"]);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).toEqual([]);
    } finally {
      nodeProcess.off("unhandledRejection", record);
    }
  });
});

describe("FeedbackClient without a storage adapter", () => {
  afterEach(() => vi.restoreAllMocks());

  it("warns once per run in development that the overlay would reappear on every launch", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const { fetch } = recorder();
    client(fetch, { storage: undefined });
    client(fetch, { storage: undefined });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/^\[tidings\] No storage adapter given: .*changelog overlay reappears on every launch\. Pass `storage`/);
    client(fetch);
    expect(warn).toHaveBeenCalledTimes(1);
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
