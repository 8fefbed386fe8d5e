import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FeedbackClient, hasWebCrypto, type FetchLike } from "@tidings/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServerProcess, type ServerProcess } from "@tidings/testing/server-process";

// The built server runs in its own process, with Web Crypto; only this process, the "device",
// goes without it, as a React Native app on Hermes does.
let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-no-webcrypto-"));
  server = await startServerProcess({ DATA_DIR: dataDir, NODE_ENV: "production", ALTCHA_COST: "10", ALTCHA_MAX_COUNTER: "200", ALTCHA_JS_MAX_COUNTER: "20" });
  const real = globalThis.crypto;
  // What react-native-get-random-values provides; there is no `crypto.subtle`.
  vi.stubGlobal("crypto", { getRandomValues: real.getRandomValues.bind(real) });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  server?.child.kill();
  await server?.exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Real fetch, with the URLs asked for kept. */
function observedFetch() {
  const urls: URL[] = [];
  const fetchImpl: FetchLike = async (input, init) => {
    urls.push(new URL(input));
    return fetch(input, init);
  };
  return { fetch: fetchImpl, paths: () => urls.map((u) => `${u.pathname}${u.search}`) };
}

describe("built-in altcha on a device without Web Crypto", () => {
  it("solves the lighter challenge in plain JavaScript, and the server takes the submission", async () => {
    expect(hasWebCrypto()).toBe(false);
    const observed = observedFetch();
    const client = new FeedbackClient({ baseUrl: server.url, appKey: "app_demo", fetch: observed.fetch, warn: () => undefined });
    expect((await client.getConfig()).verification).toMatchObject({ provider: "altcha", required: true });
    const feedback = await client.submitFeedback({ title: "Crash on start", details: "Sent from Hermes.", platform: "ios" });
    expect(typeof feedback.submissionId).toBe("string");
    expect(observed.paths()).toContain("/api/v1/public/apps/app_demo/verification/challenge?solver=js");
  });

  it("refuses a token solved once already: the lighter challenge is single-use too", async () => {
    const client = new FeedbackClient({ baseUrl: server.url, appKey: "app_demo", warn: () => undefined });
    const verificationToken = await client.createVerificationToken();
    await client.submitFeatureRequest({ title: "Offline mode from a device without Web Crypto", verificationToken });
    const error = await client.submitFeatureRequest({ title: "Second use of the token", verificationToken }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, code: "verification_required" });
  });
});
