import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigLoader } from "./config-loader.js";
import { UnexpectedStatusException } from "./errors.js";
import type { PublicAppConfig } from "./types.js";

const config = { appId: "a", appKey: "app_x", name: "X", sdk: { theme: "ocean" } } as unknown as PublicAppConfig;
const notFound = new UnexpectedStatusException("App not found", { status: 404 });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("ConfigLoader", () => {
  it("retries once after 2 s and then succeeds", async () => {
    const load = vi.fn<() => Promise<PublicAppConfig>>().mockRejectedValueOnce(new Error("offline")).mockResolvedValueOnce(config);
    const loader = new ConfigLoader(load);
    const done = loader.start();
    await vi.advanceTimersByTimeAsync(1999);
    expect(load).toHaveBeenCalledTimes(1);
    expect(loader.state.status).toBe("loading");
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(loader.state).toMatchObject({ status: "ready", config, theme: "ocean", error: undefined });
  });

  it("exposes the error after the retry fails, falls back to the system theme, and fails closed", async () => {
    const load = vi.fn<() => Promise<PublicAppConfig>>().mockRejectedValue(notFound);
    const loader = new ConfigLoader(load);
    const done = loader.start();
    await vi.advanceTimersByTimeAsync(2000);
    await done;
    expect(load).toHaveBeenCalledTimes(2);
    expect(loader.state).toMatchObject({ status: "error", config: null, error: notFound, theme: "system" });
  });

  it("refresh re-fetches once and clears the error on success", async () => {
    const load = vi.fn<() => Promise<PublicAppConfig>>().mockRejectedValueOnce(notFound).mockRejectedValueOnce(notFound).mockResolvedValue(config);
    const loader = new ConfigLoader(load);
    const done = loader.start();
    await vi.advanceTimersByTimeAsync(2000);
    await done;
    await loader.refresh();
    expect(load).toHaveBeenCalledTimes(3);
    expect(loader.state).toMatchObject({ status: "ready", error: undefined });
  });

  it("shows unknown themes as system and stops on dispose", async () => {
    const loader = new ConfigLoader(async () => ({ ...config, sdk: { theme: "neon" } }));
    await loader.start();
    expect(loader.state.theme).toBe("system");
    const failing = new ConfigLoader(() => Promise.reject(new Error("x")));
    const started = failing.start();
    await vi.advanceTimersByTimeAsync(0);
    failing.dispose();
    await started;
    expect(vi.getTimerCount()).toBe(0);
  });
});
