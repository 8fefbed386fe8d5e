// @vitest-environment jsdom
import { FeedbackClient, memoryStorage, NetworkException, UserTokenStore } from "@tidings/client";
import { act, cleanup, render, renderHook, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { TidingsScreen } from "./components/TidingsScreen.js";
import { useTidings, useAppConfig, useComments, useFeatureRequests, useUserToken, TidingsProvider, type TidingsProviderProps } from "@tidings/react-core";
import { de } from "@tidings/react-core/locales/de";
import { fr } from "@tidings/react-core/locales/fr";
import { demoConfig, fakeFetch } from "@tidings/react-core/testing";
import { startRealServer } from "@tidings/testing/real-server";

const quiet = { warn: () => undefined };
let server: Awaited<ReturnType<typeof startRealServer>>;
beforeAll(async () => {
  server = await startRealServer();
});
afterAll(() => server?.close());
afterEach(cleanup);

function realClient(appKey = "app_demo") {
  return new FeedbackClient({ baseUrl: server.baseUrl, appKey, storage: memoryStorage(), ...quiet });
}

function wrapper(props: Omit<TidingsProviderProps, "children">) {
  return ({ children }: { children: ReactNode }) => <TidingsProvider {...props}>{children}</TidingsProvider>;
}

describe("TidingsProvider", () => {
  it("throws a clear error when a hook runs without the provider", () => {
    expect(() => renderHook(() => useTidings())).toThrow(/outside <TidingsProvider>/);
  });

  it("loads the real config at mount and takes the theme from it, a theme prop winning", async () => {
    const client = realClient();
    const { result } = renderHook(() => useAppConfig(), { wrapper: wrapper({ client }) });
    expect(result.current.status).toBe("loading");
    await waitFor(() => expect(result.current.status).toBe("ready"));
    expect(result.current.config?.name).toBe("Demo app");
    render(
      <TidingsProvider client={client} theme="ocean">
        <TidingsScreen label="x">hi</TidingsScreen>
      </TidingsProvider>,
    );
    expect(screen.getByLabelText("x").getAttribute("data-theme")).toBe("ocean");
  });

  it("retries a failed config load once, then exposes the error with theme system until refreshConfig succeeds", async () => {
    let fail = true;
    const api = fakeFetch([({ url }) => (url.pathname.startsWith("/api/v1/public/config/") ? (fail ? { status: 500, body: { error: "boom" } } : { status: 200, body: demoConfig({ theme: "dark" }) }) : undefined)]);
    const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, ...quiet });
    const { result } = renderHook(() => ({ config: useAppConfig(), ctx: useTidings() }), { wrapper: wrapper({ client, configRetryDelayMs: 20 }) });
    await waitFor(() => expect(result.current.config.status).toBe("error"));
    expect(api.calls).toHaveLength(2);
    expect(result.current.config.error).toBeDefined();
    expect(result.current.ctx.theme).toBe("system");
    fail = false;
    await act(() => result.current.config.refresh());
    expect(result.current.config.error).toBeUndefined();
    expect(result.current.ctx.theme).toBe("dark");
    expect(api.calls).toHaveLength(3);
  });

  it("follows the token store on login and logout, and an explicit userToken prop wins", async () => {
    const tokens = new UserTokenStore({ storage: memoryStorage(), ...quiet });
    const client = new FeedbackClient({ baseUrl: server.baseUrl, appKey: "app_demo", tokenStore: tokens, ...quiet });
    const { result } = renderHook(() => useUserToken(), { wrapper: wrapper({ client }) });
    await waitFor(() => expect(result.current.ready).toBe(true));
    const anonymous = result.current.token;
    await act(() => result.current.setToken("user-42"));
    expect(result.current.token).toBe("user-42");
    await act(async () => void (await result.current.resetToken()));
    expect(result.current.token).not.toBe("user-42");
    expect(result.current.token).not.toBe(anonymous);

    const pinned = renderHook(() => useUserToken(), { wrapper: wrapper({ client, userToken: "host-user" }) });
    await act(() => tokens.setToken("someone-else"));
    expect(pinned.result.current.token).toBe("host-user");
  });
});

describe("TidingsProvider locales", () => {
  function offline(warn: (message: string) => void = () => undefined) {
    const api = fakeFetch([({ url }) => (url.pathname.startsWith("/api/v1/public/config/") ? { status: 200, body: demoConfig() } : undefined)]);
    return new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), warn });
  }
  const network = new NetworkException("offline");

  it("speaks English without packs, whatever the device prefers", () => {
    const { result } = renderHook(() => useTidings(), { wrapper: wrapper({ client: offline(), deviceLocales: ["de-DE", "fr-FR"] }) });
    expect(result.current.locale).toBe("en");
    expect(result.current.locales).toEqual(["en"]);
    expect(result.current.t("feedback.submit")).toBe("Send");
    expect(result.current.errorMessage(network)).toBe("Could not reach the server. Check your connection and try again.");
  });

  it("picks the first device language among English and the packs it was given, for strings and SDK errors", () => {
    const { result } = renderHook(() => useTidings(), { wrapper: wrapper({ client: offline(), locales: [de, fr], deviceLocales: ["ja-JP", "fr-CA", "de-DE"] }) });
    expect(result.current.locale).toBe("fr");
    expect(result.current.locales).toEqual(["en", "fr", "de"]);
    expect(result.current.t("feedback.submit")).toBe(fr.strings["feedback.submit"]);
    expect(result.current.errorMessage(network)).toBe(fr.messages["error.network"]);
    expect(result.current.t("error.network")).toBe(fr.messages["error.network"]);
  });

  it("lets an explicit locale with its pack win over the device", () => {
    const { result } = renderHook(() => useTidings(), { wrapper: wrapper({ client: offline(), locale: "de-AT", locales: [fr, de], deviceLocales: ["fr-FR"] }) });
    expect(result.current.locale).toBe("de");
    expect(result.current.t("portal.language")).toBe("Sprache");
  });

  it("shows English for an explicit locale without its pack, and warns once", () => {
    const warn = vi.fn<(message: string) => void>();
    const client = offline(warn);
    const { result, rerender } = renderHook(() => useTidings(), { wrapper: wrapper({ client, locale: "zh-Hans", locales: [fr], deviceLocales: ["fr-FR"] }) });
    rerender();
    renderHook(() => useTidings(), { wrapper: wrapper({ client, locale: "zh-CN", locales: [fr] }) });
    expect(result.current.locale).toBe("en");
    expect(result.current.t("portal.language")).toBe("Language");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('import { zhHans } from "@tidings/react-core/locales/zh-hans"');
  });
});

describe("hooks against the real server", () => {
  it("lists the demo requests, then votes optimistically and settles on the server's count", async () => {
    const client = realClient();
    const { result } = renderHook(() => useFeatureRequests(), { wrapper: wrapper({ client }) });
    await waitFor(() => expect(result.current.status).toBe("ready"));
    expect(result.current.items.length).toBeGreaterThan(5);
    const target = result.current.items.find((i) => i.title === "Offline mode")!;
    let settled!: Promise<void>;
    act(() => {
      settled = result.current.votes.toggle(target);
    });
    // Optimistic: the count moved before the answer came back.
    expect(result.current.items.find((i) => i.id === target.id)).toMatchObject({ hasVoted: true, voteCount: target.voteCount + 1 });
    expect(result.current.votes.pending.has(target.id)).toBe(true);
    await act(() => settled);
    expect(result.current.items.find((i) => i.id === target.id)).toMatchObject({ hasVoted: true, voteCount: target.voteCount + 1 });
    expect(result.current.votes.pending.size).toBe(0);
  });

  it("searches once per pacing window and keeps the plain listing unpaced", async () => {
    const client = realClient();
    const { result } = renderHook(() => useFeatureRequests({ searchRateLimiterOptions: { minSpacingMs: 60_000, debounceMs: 10 } }), { wrapper: wrapper({ client }) });
    await waitFor(() => expect(result.current.status).toBe("ready"));
    act(() => result.current.setQuery("dark"));
    await waitFor(() => expect(result.current.items.map((i) => i.title)).toEqual(["Dark mode"]));
    act(() => result.current.setQuery("offline"));
    await new Promise((r) => setTimeout(r, 150));
    // Still the first search's results: the second waits for the 60 s spacing.
    expect(result.current.items.map((i) => i.title)).toEqual(["Dark mode"]);
    act(() => result.current.setQuery(""));
    await waitFor(() => expect(result.current.items.length).toBeGreaterThan(5));
  });

  it("posts a comment and a reply to a demo request", async () => {
    const client = realClient();
    const list = renderHook(() => useFeatureRequests(), { wrapper: wrapper({ client }) });
    await waitFor(() => expect(list.result.current.status).toBe("ready"));
    const target = list.result.current.items.find((i) => i.title === "Offline mode")!;
    const { result } = renderHook(() => useComments(target.id), { wrapper: wrapper({ client }) });
    await waitFor(() => expect(result.current.status).toBe("ready"));
    await act(async () => void (await result.current.post({ body: "First!" })));
    const parent = result.current.comments.find((c) => c.body === "First!")!;
    await act(async () => void (await result.current.post({ body: "A reply", parentId: parent.id })));
    expect(result.current.comments.find((c) => c.body === "A reply")?.parentId).toBe(parent.id);
  });
});
