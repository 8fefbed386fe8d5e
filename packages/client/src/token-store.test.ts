import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { StorageAdapter } from "./storage.js";
import { USER_TOKEN_KEY, UserTokenStore } from "./token-store.js";
import { uuidV4 } from "./uuid.js";

/** Node's process, for its `unhandledRejection` event (this package's tests see no Node types). */
const nodeProcess = (globalThis as unknown as { process: { on(event: "unhandledRejection", listener: (reason: unknown) => void): void; off(event: "unhandledRejection", listener: (reason: unknown) => void): void } }).process;

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function mapStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  const storage: StorageAdapter = {
    getItem: async (k) => values.get(k) ?? null,
    setItem: async (k, v) => void values.set(k, v),
    removeItem: async (k) => void values.delete(k),
  };
  return { storage, values };
}

describe("UserTokenStore", () => {
  it("mints an anonymous UUID v4 and persists it under service_user_token_v1", async () => {
    const { storage, values } = mapStorage();
    const store = new UserTokenStore({ storage });
    const token = await store.getToken();
    expect(token).toMatch(UUID_V4);
    await Promise.resolve();
    expect(values.get(USER_TOKEN_KEY)).toBe(token);
    expect(store.isPersistent).toBe(true);
  });

  it("reuses the persisted token on the next start (sync adapters too)", async () => {
    const values = new Map([[USER_TOKEN_KEY, "stored-token"]]);
    const store = new UserTokenStore({ storage: { getItem: (k) => values.get(k), setItem: (k, v) => void values.set(k, v) } });
    expect(await store.getToken()).toBe("stored-token");
  });

  it("lets an explicit setToken win over a storage read still in flight", async () => {
    let release: (value: string) => void = () => undefined;
    const storage: StorageAdapter = { getItem: () => new Promise<string>((r) => (release = r)), setItem: vi.fn() };
    const store = new UserTokenStore({ storage });
    await store.setToken("host-user-42");
    release("old-anonymous-token");
    expect(await store.getToken()).toBe("host-user-42");
    expect(storage.setItem).toHaveBeenCalledWith(USER_TOKEN_KEY, "host-user-42");
  });

  it("notifies subscribers on login and logout; reset mints a new anonymous token", async () => {
    const { storage, values } = mapStorage({ [USER_TOKEN_KEY]: "anon-1" });
    const store = new UserTokenStore({ storage });
    await store.getToken();
    const seen: string[] = [];
    const unsubscribe = store.subscribe((t) => seen.push(t));
    await store.setToken("user-7");
    const fresh = await store.resetToken();
    unsubscribe();
    await store.setToken("user-8");
    expect(seen).toEqual(["user-7", fresh]);
    expect(fresh).toMatch(UUID_V4);
    expect(values.get(USER_TOKEN_KEY)).toBe("user-8");
  });

  it("works in memory without an adapter and warns once that nothing survives a restart", async () => {
    const warn = vi.fn();
    const store = new UserTokenStore({ warn });
    expect(await store.getToken()).toMatch(UUID_V4);
    expect(store.isPersistent).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/seen-tracking/);
    expect(warn.mock.calls[0]![0]).toMatch(/overlay reappears on every launch/);
  });

  describe("without a secure random source", () => {
    const noRandom = () => uuidV4({});
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    beforeEach(() => {
      unhandled.length = 0;
      nodeProcess.on("unhandledRejection", record);
    });
    afterEach(() => void nodeProcess.off("unhandledRejection", record));
    /** Lets Node report rejections nobody handled: it checks once the microtasks have run. */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

    it("rejects getToken at the call, naming react-native-get-random-values, and leaves nothing unhandled", async () => {
      const warn = vi.fn();
      const store = new UserTokenStore({ storage: mapStorage().storage, generate: noRandom, warn });
      await settle();
      expect(unhandled).toEqual([]);
      await expect(store.getToken()).rejects.toThrow(/react-native-get-random-values/);
      expect(store.token).toBeNull();
      // The load that found no stored token says so once in development.
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^No user token: .*react-native-get-random-values/));
      await settle();
      expect(unhandled).toEqual([]);
    });

    it("still reads a stored token, and a later getToken mints once the polyfill is in", async () => {
      const stored = new UserTokenStore({ storage: mapStorage({ [USER_TOKEN_KEY]: "kept" }).storage, generate: noRandom });
      expect(await stored.getToken()).toBe("kept");

      let available = false;
      const { storage, values } = mapStorage();
      const late = new UserTokenStore({ storage, generate: () => (available ? uuidV4() : noRandom()), warn: () => undefined });
      await expect(late.getToken()).rejects.toThrow(/react-native-get-random-values/);
      available = true;
      const token = await late.getToken();
      expect(token).toMatch(UUID_V4);
      expect(values.get(USER_TOKEN_KEY)).toBe(token);
    });

    it("rejects resetToken at the call and keeps the current token", async () => {
      const store = new UserTokenStore({ storage: mapStorage({ [USER_TOKEN_KEY]: "anon-1" }).storage, generate: noRandom });
      await store.getToken();
      await expect(store.resetToken()).rejects.toThrow(/react-native-get-random-values/);
      expect(await store.getToken()).toBe("anon-1");
    });
  });

  it("mints a token when storage fails to read", async () => {
    const store = new UserTokenStore({ storage: { getItem: () => Promise.reject(new Error("locked")), setItem: () => undefined } });
    expect(await store.getToken()).toMatch(UUID_V4);
  });

  it("refuses an empty token", async () => {
    const store = new UserTokenStore({ warn: () => undefined });
    await expect(store.setToken("  ")).rejects.toThrow(TypeError);
  });
});
