import { FeedbackClient, memoryStorage } from "@tidings/client";
import { de } from "@tidings/react-core/locales/de";
import { fr } from "@tidings/react-core/locales/fr";
import { demoConfig, fakeFetch, type FakeRoute } from "@tidings/react-core/testing";
import { afterEach, describe, expect, jest, test } from "@jest/globals";
import { act, fireEvent, render, screen } from "@testing-library/react-native";
import { Text } from "react-native";
import { FeedbackComposer } from "./components/FeedbackComposer.js";
import { ErrorState } from "./components/States.js";
import { TidingsProvider, type TidingsProviderProps } from "./TidingsProvider.js";

// The device prefers German, then French: what expo-localization answers on such a phone.
jest.mock("expo-localization", () => ({ getLocales: () => [{ languageTag: "de-DE" }, { languageTag: "fr-FR" }] }), { virtual: true });

function client(warn: (message: string) => void = () => undefined) {
  const api = fakeFetch([({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined)]);
  return new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), warn });
}

/** Renders a retry button under the provider, once its config load has settled. */
async function show(props: Omit<TidingsProviderProps, "children">) {
  render(
    <TidingsProvider {...props}>
      <ErrorState message="x" onRetry={() => undefined} />
    </TidingsProvider>,
  );
  await act(async () => undefined);
}

describe("TidingsProvider languages", () => {
  test("follows the device's first language among the packs the app imported", async () => {
    await show({ client: client(), locales: [fr, de] });
    expect(screen.getByRole("button", { name: "Erneut versuchen" })).toBeTruthy();
  });

  test("takes the next device language the app has a pack for", async () => {
    await show({ client: client(), locales: [fr] });
    expect(screen.getByRole("button", { name: "Réessayer" })).toBeTruthy();
  });

  test("speaks English when the app imported no pack", async () => {
    await show({ client: client() });
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });

  test("shows English for an explicit locale whose pack is missing, and says once how to add it", async () => {
    const warn = jest.fn<(message: string) => void>();
    const shared = client(warn);
    await show({ client: shared, locale: "ja", locales: [fr] });
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
    await show({ client: shared, locale: "ja-JP", locales: [de] });
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('import { ja } from "@tidings/react-core/locales/ja"');
  });
});

const config: FakeRoute = ({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined);
const accepted: FakeRoute = ({ method, url }) => (method === "POST" && url.pathname === "/api/v1/feedback" ? { status: 201, body: { submissionId: "sub_1" } } : undefined);

/** Lets Node report the rejections nobody handled: it checks once the microtasks of a macrotask ran. */
const settle = () => act(() => new Promise<void>((resolve) => setImmediate(resolve)));

describe("TidingsProvider, errors a developer can act on", () => {
  const scope = globalThis as { crypto?: unknown; __DEV__?: boolean | undefined };
  const { crypto, __DEV__: dev } = scope;
  afterEach(() => {
    Object.defineProperty(globalThis, "crypto", { value: crypto, configurable: true, writable: true });
    scope.__DEV__ = dev;
    jest.restoreAllMocks();
  });

  test("without react-native-get-random-values: no unhandled rejection, a visible error on Send, and the polyfill named at the call", async () => {
    // Hermes without the polyfill: no crypto.getRandomValues.
    Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true, writable: true });
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      const api = fakeFetch([config, accepted]);
      const warnings: string[] = [];
      const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), warn: (m) => void warnings.push(m) });
      render(
        <TidingsProvider client={client} locale="en">
          <FeedbackComposer />
        </TidingsProvider>,
      );
      await settle();
      fireEvent.changeText(await screen.findByLabelText("Title"), "Crash on start");
      fireEvent.press(screen.getByRole("button", { name: "Send" }));
      expect(await screen.findByText("Something went wrong. Please try again.")).toBeTruthy();
      expect(screen.getByLabelText("Title").props.value).toBe("Crash on start");
      expect(api.calls.filter((c) => c.method === "POST")).toEqual([]);
      // What the developer reads: the call they make rejects naming the package, and a development warning says it once.
      await expect(client.getUserToken()).rejects.toThrow(/install react-native-get-random-values/);
      expect(warnings).toEqual([expect.stringMatching(/^No user token: .*react-native-get-random-values/)]);
      await settle();
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", record);
    }
  });

  test("a client without a storage adapter warns once in a development build, saying the overlay would reappear on every launch (rule 8)", async () => {
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    const api = fakeFetch([config]);
    const mount = () => {
      const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch });
      return render(
        <TidingsProvider client={client}>
          <Text>Home</Text>
        </TidingsProvider>,
      );
    };
    scope.__DEV__ = false;
    mount().unmount();
    expect(warn).not.toHaveBeenCalled();

    scope.__DEV__ = true;
    // A remount (or a fast refresh) that creates the client again does not repeat it.
    mount().unmount();
    const view = mount();
    await settle();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/^\[tidings\] No storage adapter given: .*changelog overlay reappears on every launch\. Pass `storage`/);
    view.unmount();
  });
});
