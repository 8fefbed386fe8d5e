import net from "node:net";
import {
  AbortError,
  AuthenticationRequiredException,
  FeedbackClient,
  InactiveSubscriptionException,
  NetworkException,
  QuotaExceededException,
  RateLimitedException,
  RequestTimeoutException,
  resolveSubmissionPlatform,
  UnexpectedStatusException,
  userIdentityHash,
  VerificationRequiredException,
  type FeedbackClientOptions,
  type FetchLike,
} from "@tidings/client";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { startRealServer, type RealServer } from "./real-server.js";

/** A 1×1 PNG. */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

let server: RealServer;
const quiet = { warn: () => undefined };

beforeAll(async () => {
  server = await startRealServer();
});
afterAll(async () => {
  await server?.close();
});

function demoClient(options: Partial<FeedbackClientOptions> = {}) {
  return new FeedbackClient({ baseUrl: `${server.baseUrl}/`, appKey: "app_demo", ...quiet, ...options });
}

/** Real fetch, with the last answer's headers kept for assertions. */
function observedFetch() {
  const responses: Response[] = [];
  const fetchImpl: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    responses.push(response);
    return response;
  };
  return { fetch: fetchImpl, last: () => responses.at(-1)! };
}

/** Skips the test when the server has no such route yet (404 `not_found`), so the report can list it. */
async function orSkipWhenMissing<T>(ctx: TestContext, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof UnexpectedStatusException && error.status === 404 && error.code === "not_found") ctx.skip(`route missing: ${error.message}`);
    throw error;
  }
}

describe("public reads against the real server", () => {
  it("loads the demo app's config", async () => {
    const config = await demoClient().getConfig();
    expect(config.appKey).toBe("app_demo");
    expect(config.allowPublic).toBe(true);
    expect(Array.isArray(config.allowedPlatforms)).toBe(true);
  });

  it("answers an unknown app key with UnexpectedStatusException 404 and the raw body", async () => {
    const error = await demoClient({ appKey: "app_does_not_exist" }).getConfig().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedStatusException);
    const e = error as UnexpectedStatusException;
    expect(e.status).toBe(404);
    expect(e.rawBody).toBe('{"error":"App not found"}');
    expect(e.message).toBe("App not found");
    expect(e.requestId).toMatch(/\S{8,}/);
  });

  it("lists columns and released versions by position", async () => {
    const client = demoClient();
    const columns = await client.getColumns();
    expect(columns.length).toBeGreaterThan(0);
    expect(columns.map((c) => c.position)).toEqual([...columns.map((c) => c.position)].sort((a, b) => a - b));
    const versions = await client.getVersions();
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.every((v) => v.released)).toBe(true);
  });

  it.each(["header", "query", "both"] as const)("lists feature requests with tokenTransport %s", async (tokenTransport) => {
    const observed = observedFetch();
    const page = await demoClient({ tokenTransport, fetch: observed.fetch }).listFeatureRequests({ limit: 5 });
    expect(page.requests.length).toBeGreaterThan(0);
    expect(page.total).toBeGreaterThanOrEqual(page.requests.length);
    const warning = observed.last().headers.get("warning");
    if (tokenTransport === "query") {
      expect(warning).toMatch(/userToken query parameter is deprecated/);
      expect(observed.last().headers.get("x-deprecated-query-token")).toBe("deprecated");
    } else {
      expect(warning).toBeNull();
    }
  });

  it("searches and pages", async () => {
    const client = demoClient();
    const first = await client.listFeatureRequests({ limit: 2 });
    const second = await client.listFeatureRequests({ limit: 2, offset: 2 });
    expect(first.requests.map((r) => r.id)).not.toEqual(second.requests.map((r) => r.id));
    const word = first.requests[0]!.title.split(/\s+/).find((w) => w.length > 3) ?? first.requests[0]!.title;
    const found = await client.listFeatureRequests({ q: word });
    expect(found.requests.length).toBeGreaterThan(0);
  });
});

describe("one request and similar requests against the real server", () => {
  it("reads a request by id as the listing shows it, the user's vote included, and refuses an unknown one", async () => {
    const client = demoClient();
    const listed = (await client.listFeatureRequests({ q: "dark mode" })).requests.find((r) => r.title === "Dark mode")!;
    expect(await client.getFeatureRequest(listed.id)).toEqual(listed);
    await client.toggleVote(listed.id);
    expect(await client.getFeatureRequest(listed.id)).toMatchObject({ hasVoted: true, voteCount: listed.voteCount + 1 });
    await client.removeVote(listed.id);
    await expect(client.getFeatureRequest("fr_00000000000000000000000000")).rejects.toMatchObject({ status: 404, code: "feature_request_not_found" });
  });

  it('finds "Dark mode" from the title typed so far', async () => {
    const similar = await demoClient().findSimilarFeatureRequests("dark mo");
    expect(similar.map((r) => r.title)).toContain("Dark mode");
    expect(await demoClient().findSimilarFeatureRequests("  ")).toEqual([]);
  });
});

describe("participation against the real server", () => {
  it("proposes a request, which its author sees as their own pending request", async () => {
    const client = demoClient();
    const result = await client.submitFeatureRequest({ title: "Export to CSV from the client e2e", details: "Please add a CSV export." });
    expect(result.featureRequestId).toMatch(/^fr_/);
    const page = await client.listFeatureRequests({ limit: 200 });
    const mine = page.requests.find((r) => r.id === result.featureRequestId);
    expect(mine?.isOwnRequest).toBe(true);
    // Other users do not see a request that waits for moderation.
    const stranger = await demoClient().listFeatureRequests({ limit: 200 });
    expect(stranger.requests.some((r) => r.id === result.featureRequestId)).toBe(!result.pending);
  });

  it("toggles a vote on and off, and removes it idempotently", async () => {
    const client = demoClient();
    const target = (await client.listFeatureRequests({ limit: 1 })).requests[0]!;
    const on = await client.toggleVote(target.id);
    expect(on).toEqual({ voted: true, voteCount: target.voteCount + 1 });
    const listed = (await client.listFeatureRequests({ limit: 200 })).requests.find((r) => r.id === target.id);
    expect(listed?.hasVoted).toBe(true);
    const off = await client.toggleVote(target.id);
    expect(off).toEqual({ voted: false, voteCount: target.voteCount });
    expect(await client.removeVote(target.id)).toEqual({ voted: false, voteCount: target.voteCount });
  });

  it("posts a comment and a reply, and lists them oldest first", async () => {
    const client = demoClient();
    const target = (await client.listFeatureRequests({ limit: 1 })).requests[0]!;
    const comment = await client.postComment(target.id, { body: "  Would love this  ", authorName: "E2E" });
    expect(comment.body).toBe("Would love this");
    const reply = await client.postComment(target.id, { body: "Same here", parentId: comment.id });
    expect(reply.parentId).toBe(comment.id);
    const page = await client.listComments(target.id);
    const ids = page.comments.map((c) => c.id);
    expect(ids.indexOf(comment.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(reply.id)).toBeGreaterThan(ids.indexOf(comment.id));
  });
});

describe("error classes from real server answers", () => {
  it("401: AuthenticationRequiredException when the roadmap is closed to anonymous users; an identity hash opens it", async () => {
    const app = await server.createApp("closed-roadmap");
    await app.settings({ allowAnonymousRoadmap: false });
    const anonymous = new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, ...quiet });
    const error = await anonymous.getColumns().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationRequiredException);
    expect((error as AuthenticationRequiredException).status).toBe(401);
    expect((error as AuthenticationRequiredException).code).toBe("authentication_required");
    await expect(anonymous.listFeatureRequests()).rejects.toBeInstanceOf(AuthenticationRequiredException);

    const identified = new FeedbackClient({
      baseUrl: server.baseUrl,
      appKey: app.appKey,
      userToken: "host-user-42",
      userHash: (token) => userIdentityHash(app.signingSecret, token),
      ...quiet,
    });
    expect((await identified.getColumns()).length).toBeGreaterThan(0);
    expect((await identified.listFeatureRequests()).requests).toEqual([]);
  });

  it("403: VerificationRequiredException when the app requires human verification", async () => {
    const app = await server.createApp("verified-intake");
    await app.settings({ verification: { provider: "altcha" } });
    // An explicit provider wins over the built-in altcha solver; this one vouches for nobody.
    const client = new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, verificationTokenProvider: () => undefined, ...quiet });
    const missing = await client.submitFeatureRequest({ title: "Needs a token" }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(VerificationRequiredException);
    expect((missing as VerificationRequiredException).code).toBe("verification_required");
    const withProvider = new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, verificationTokenProvider: async () => "bogus", ...quiet });
    await expect(withProvider.submitFeatureRequest({ title: "Bad token" })).rejects.toBeInstanceOf(VerificationRequiredException);
  });

  it("402: QuotaExceededException at the monthly quota, InactiveSubscriptionException when canceled", async () => {
    const app = await server.createApp("billing");
    const client = new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, ...quiet });
    await app.workspace({ monthlySubmissionQuota: 0 });
    const quota = await client.submitFeatureRequest({ title: "Over quota" }).catch((e: unknown) => e);
    expect(quota).toBeInstanceOf(QuotaExceededException);
    expect((quota as QuotaExceededException).status).toBe(402);
    await app.workspace({ monthlySubmissionQuota: null, subscriptionStatus: "canceled" });
    const inactive = await client.submitFeatureRequest({ title: "Canceled" }).catch((e: unknown) => e);
    expect(inactive).toBeInstanceOf(InactiveSubscriptionException);
    expect((inactive as InactiveSubscriptionException).code).toBe("subscription_inactive");
  });

  it("429: RateLimitedException with retryAfterMs from the server's Retry-After", async () => {
    const limited = await startRealServer({ TIDINGS_RATE_LIMIT_CONFIG: "1/60" });
    try {
      const client = new FeedbackClient({ baseUrl: limited.baseUrl, appKey: "app_demo", ...quiet });
      await client.getConfig();
      const error = await client.getConfig().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitedException);
      const retryAfterMs = (error as RateLimitedException).retryAfterMs;
      expect(retryAfterMs).toBeGreaterThan(0);
      expect(retryAfterMs).toBeLessThanOrEqual(60_000);
    } finally {
      await limited.close();
    }
  });

  describe("a server that accepts connections and never answers", () => {
    let silent: net.Server;
    let silentUrl: string;
    const sockets = new Set<net.Socket>();
    beforeAll(async () => {
      silent = net.createServer((socket) => {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    it("raises RequestTimeoutException after the per-call budget", async () => {
      const client = new FeedbackClient({ baseUrl: silentUrl, appKey: "app_demo", ...quiet });
      const started = Date.now();
      const error = await client.getConfig({ timeoutMs: 200 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestTimeoutException);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it("raises AbortError when the caller aborts", async () => {
      const client = new FeedbackClient({ baseUrl: silentUrl, appKey: "app_demo", ...quiet });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const error = await client.getConfig({ signal: controller.signal }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AbortError);
      expect((error as Error).name).toBe("AbortError");
    });
  });

  it("raises NetworkException when nothing listens", async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = new FeedbackClient({ baseUrl: `http://127.0.0.1:${port}`, appKey: "app_demo", ...quiet });
    await expect(client.getConfig()).rejects.toBeInstanceOf(NetworkException);
  });
});

// Releases and the overlay: changelog.test.ts.
describe("changelog subscriptions against the real server", () => {
  it("reads the demo app's changelog", async () => {
    const page = await demoClient().getChangelog();
    expect(Array.isArray(page.entries)).toBe(true);
  });

  it("subscribes to and unsubscribes from the changelog", async () => {
    const client = demoClient();
    expect(await client.subscribeToChangelog("e2e@example.com")).toEqual({ subscribed: true });
    expect(await client.unsubscribeFromChangelog("e2e@example.com")).toEqual({ unsubscribed: true });
  });
});

describe("endpoints other engineers are building (skipped while the server answers 404 not_found)", () => {
  it("submits feedback with the composer's platform (rule 4), uploading a picked attachment first", async (ctx) => {
    const client = demoClient();
    const config = await client.getConfig();
    const platform = resolveSubmissionPlatform({ defaultPlatform: client.defaultPlatform, allowed: config.allowedPlatforms });
    const png = Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0));
    const result = await orSkipWhenMissing(
      ctx,
      client.submitFeedback({
        title: "Crash on start",
        details: "It crashes when I open it.",
        platform,
        attachments: [{ file: png, filename: "dot.png", mimeType: "image/png" }],
      }),
    );
    expect(typeof result.submissionId).toBe("string");
  });

  it("forwards a direct submit's platform unchecked, so the server's refusal surfaces", async (ctx) => {
    const client = demoClient();
    const config = await client.getConfig();
    const refused = (["ios", "macos", "android", "universal", "web"] as const).find((p) => config.allowedPlatforms.length > 0 && !config.allowedPlatforms.includes(p));
    if (refused === undefined) ctx.skip("the demo app allows every platform");
    const error = await orSkipWhenMissing(ctx, client.submitFeedback({ title: "Crash", details: "on start", platform: refused }).then(() => undefined, (e: unknown) => { if (e instanceof UnexpectedStatusException && e.code === "not_found") throw e; return e; }));
    expect(error).toBeInstanceOf(UnexpectedStatusException);
    expect((error as UnexpectedStatusException).status).toBe(403);
  });

  it("uploads an image attachment", async (ctx) => {
    const png = Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0));
    const descriptor = await orSkipWhenMissing(ctx, demoClient().uploadAttachment({ file: png, filename: "dot.png", mimeType: "image/png" }));
    expect(descriptor.key).not.toBe("");
  });

  it("reports signed user attributes", async (ctx) => {
    const app = await server.createApp("attributes");
    const client = new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, sdkSigningSecret: app.signingSecret, ...quiet });
    const result = await orSkipWhenMissing(ctx, client.reportUserAttributes({ isPaying: true, plan: "pro", mrr: 49.5, currency: "EUR" }));
    expect(result.ok).toBe(true);
  });

  it("reads a public user profile", async (ctx) => {
    const error = await orSkipWhenMissing(ctx, demoClient().getUserProfile("u_00000000000000000000000000000000").then(() => undefined, (e: unknown) => { if (e instanceof UnexpectedStatusException && e.code === "not_found") throw e; return e; }));
    expect(error === undefined || error instanceof UnexpectedStatusException).toBe(true);
  });
});
