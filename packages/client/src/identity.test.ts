import { afterEach, describe, expect, it, vi } from "vitest";
import { FeedbackClient } from "./client.js";
import { memoryStorage } from "./storage.js";
import { client, recorder, requests } from "./testing/recorder.js";

/** Node's process, for its `unhandledRejection` event (this package's tests see no Node types). */
const nodeProcess = (globalThis as unknown as { process: { on(event: "unhandledRejection", listener: (reason: unknown) => void): void; off(event: "unhandledRejection", listener: (reason: unknown) => void): void } }).process;

describe("FeedbackClient identity", () => {
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

  it("uses the per-call token over the explicit one, and the explicit one over the store", async () => {
    const { seen, fetch } = recorder();
    const c = client(fetch);
    await c.tokens.setToken("store-token");
    await c.postComment("fr_1", { body: " hi " }, { userToken: "call-token" });
    await c.postComment("fr_1", { body: "hi" });
    expect(seen.map((s) => s.headers["X-User-Token"])).toEqual(["call-token", "tok-1"]);
    expect(seen[0]!.body).toEqual({ body: "hi" });
  });

  it("waits for the stored token when no explicit token is given", async () => {
    const { seen, fetch } = recorder();
    const c = new FeedbackClient({ baseUrl: "https://api", appKey: "app_demo", fetch, storage: memoryStorage() });
    await c.toggleVote("fr_1");
    expect(seen[0]!.headers["X-User-Token"]).toBe(await c.tokens.getToken());
  });
});

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
