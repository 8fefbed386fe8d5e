import { FeedbackClient, memoryStorage, SEEN_CHANGELOGS_KEY, type StorageAdapter } from "@tidings/client";
import { useTidings } from "@tidings/react-core";
import { demoConfig, fakeFetch, type FakeRoute } from "@tidings/react-core/testing";
import { describe, expect, test } from "@jest/globals";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react-native";
import { Text } from "react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { ChangelogOverlay, type ChangelogOverlayProps } from "./ChangelogOverlay.js";

// A cold first run compiles modules while a query waits; give it the time.
const CHANGELOG = "/api/v1/public/apps/app_test/changelog";
const overlayCopy = { changelogOverlay: { title: "Fresh in 1.2", subtitle: "What changed this week", primaryButton: "Got it", closeButton: "Dismiss" } };
const config = (sdk: Record<string, unknown> = overlayCopy): FakeRoute => ({ url }) =>
  url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig(sdk) } : undefined;
const changelog: FakeRoute = ({ url }) =>
  url.pathname === CHANGELOG
    ? {
        status: 200,
        body: {
          entries: [
            {
              id: "cl_2",
              title: "Faster sync",
              body: "- **Sync** is twice as fast",
              blocks: [{ type: "list", ordered: false, start: 1, items: [{ checked: null, children: [{ type: "paragraph", children: [{ type: "strong", children: [{ type: "text", text: "Sync" }] }, { type: "text", text: " is twice as fast" }] }] }] }],
              versionLabel: "1.2",
              publishedAt: "2026-02-01T12:00:00Z",
            },
            { id: "cl_1", title: "Hello", body: "First release", versionLabel: null, publishedAt: "2026-01-01T12:00:00Z" },
          ],
          hasMore: false,
          nextCursor: null,
        },
      }
    : undefined;

/** The host app's storage, counting reads of the seen releases so a test knows the overlay has decided. */
function appStorage() {
  const inner = memoryStorage();
  const storage: StorageAdapter & { seenReads: number } = {
    seenReads: 0,
    getItem(key) {
      if (key === SEEN_CHANGELOGS_KEY) storage.seenReads++;
      return inner.getItem(key);
    },
    setItem: (key, value) => inner.setItem(key, value),
    removeItem: (key) => inner.removeItem?.(key),
  };
  return storage;
}

/** Shows when the provider has read the config, so a test knows the surface gates are final. */
function Settled() {
  return useTidings().configSettled ? <Text>settled</Text> : null;
}

function launch(storage: StorageAdapter, props: ChangelogOverlayProps, sdk?: Record<string, unknown>) {
  const api = fakeFetch([config(sdk), changelog]);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage, userToken: "tester", warn: () => undefined });
  const view = render(
    <TidingsProvider client={client} locale="en">
      <ChangelogOverlay {...props} />
      <Settled />
    </TidingsProvider>,
  );
  return { api, client, view };
}

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

describe("ChangelogOverlay", () => {
  test("shows an unseen release once, with the config's copy, and not again after it was dismissed", async () => {
    const storage = appStorage();
    const first = launch(storage, { onlyIfUnseen: true });
    expect(await screen.findByRole("header", { name: "Fresh in 1.2" })).toBeTruthy();
    expect(screen.getByText("What changed this week")).toBeTruthy();
    expect(screen.getByRole("header", { name: "Faster sync" })).toBeTruthy();
    expect(screen.getByText("Sync is twice as fast")).toBeTruthy();
    expect(screen.getByText("Hello")).toBeTruthy();
    fireEvent.press(screen.getByRole("button", { name: "Got it" }));
    expect(screen.queryByText("Fresh in 1.2")).toBeNull();
    await waitFor(async () => expect(await first.client.seenChangelogs.hasSeen("1.2")).toBe(true));
    first.view.unmount();

    // The next launch: a fresh client on the same storage.
    const reads = storage.seenReads;
    const second = launch(storage, { onlyIfUnseen: true });
    await waitFor(() => expect(storage.seenReads).toBeGreaterThan(reads));
    await settle();
    expect(second.api.calls.some((c) => c.url.pathname === CHANGELOG)).toBe(true);
    expect(screen.queryByText("Fresh in 1.2")).toBeNull();
  });

  test("shows a seen release anyway when onlyIfUnseen is off", async () => {
    const storage = appStorage();
    await storage.setItem(SEEN_CHANGELOGS_KEY, JSON.stringify(["1.2"]));
    launch(storage, {});
    expect(await screen.findByRole("header", { name: "Fresh in 1.2" })).toBeTruthy();
  });

  test("dismissed with the close button and autoMarkSeen off, the release stays unseen and comes back", async () => {
    const storage = appStorage();
    const first = launch(storage, { onlyIfUnseen: true, autoMarkSeen: false });
    fireEvent.press(await screen.findByRole("button", { name: "Dismiss" }));
    expect(screen.queryByText("Fresh in 1.2")).toBeNull();
    await settle();
    expect(await first.client.seenChangelogs.hasSeen("1.2")).toBe(false);
    first.view.unmount();

    launch(storage, { onlyIfUnseen: true });
    expect(await screen.findByRole("header", { name: "Fresh in 1.2" })).toBeTruthy();
  });

  test("falls back to the built-in copy when the config has none, and tells the host it closed", async () => {
    let closed = 0;
    launch(appStorage(), { onClose: () => closed++ }, {});
    expect(await screen.findByRole("header", { name: "What's new" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Continue" })).toBeTruthy();
    fireEvent.press(screen.getByRole("button", { name: "Close" }));
    expect(closed).toBe(1);
    expect(screen.queryByText("What's new")).toBeNull();
  });

  test("prepares nothing when the changelog flag is off", async () => {
    const { api } = launch(appStorage(), {}, { features: { changelog: false } });
    await screen.findByText("settled");
    await settle();
    expect(api.calls.some((c) => c.url.pathname === CHANGELOG)).toBe(false);
    expect(screen.queryByText("What's new")).toBeNull();
  });
});
