import { afterEach, describe, expect, it, vi } from "vitest";
import { FeedbackClient } from "./client.js";
import { client, recorder } from "./testing/recorder.js";

describe("FeedbackClient", () => {
  it("strips trailing slashes, defaults its options, and encodes the app key in paths", async () => {
    const { seen, fetch } = recorder();
    const c = client(fetch, { appKey: "app/x" });
    expect(c.baseUrl).toBe("https://api.example.com");
    expect([c.timeoutMs, c.uploadTimeoutMs, c.tokenTransport, c.defaultPlatform]).toEqual([15_000, 60_000, "header", "universal"]);
    await c.getConfig();
    expect(seen[0]!.url.href).toBe("https://api.example.com/api/v1/public/config/app%2Fx");
  });

  it("requires a base URL and an app key", () => {
    expect(() => new FeedbackClient({ baseUrl: "", appKey: "app_x" })).toThrow(TypeError);
    expect(() => new FeedbackClient({ baseUrl: "https://x", appKey: " " })).toThrow(TypeError);
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
