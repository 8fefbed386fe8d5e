import { FeedbackClient, memoryStorage } from "@tidings/client";
import { de } from "@tidings/react-core/locales/de";
import { fr } from "@tidings/react-core/locales/fr";
import { demoConfig, fakeFetch } from "@tidings/react-core/testing";
import { describe, expect, jest, test } from "@jest/globals";
import { act, render, screen } from "@testing-library/react-native";
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
