import { FeedbackClient, memoryStorage } from "@tidings/client";
import { allLocales } from "@tidings/react-core/locales";
import { demoConfig, fakeFetch, type FakeRoute } from "@tidings/react-core/testing";
import { describe, expect, jest, test } from "@jest/globals";
import { fireEvent, render, screen, waitFor } from "@testing-library/react-native";
import { Linking } from "react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { UserProfileScreen } from "./UserProfileScreen.js";

const config: FakeRoute = ({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined);
const profileAt = (answer: ReturnType<FakeRoute> | (() => ReturnType<FakeRoute>)): FakeRoute => ({ method, url }) =>
  method === "GET" && url.pathname === "/api/v1/users/u_1/profile" ? (typeof answer === "function" ? answer() : answer) : undefined;

function setup(routes: FakeRoute[], locale = "en") {
  const api = fakeFetch([config, ...routes]);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), warn: () => undefined });
  const view = render(
    <TidingsProvider client={client} locale={locale} locales={allLocales}>
      <UserProfileScreen userId="u_1" fallbackName="Comment author" />
    </TidingsProvider>,
  );
  return { api, view };
}

describe("UserProfileScreen", () => {
  test("shows the picture (the initial once it fails to load), name, bio, website and recent comments of the legacy shape", async () => {
    setup([
      profileAt({
        status: 200,
        body: {
          profile: { clerkUserId: "u_1", displayName: "Ada", avatarUrl: "https://img.test/ada.png", bio: "Builds things", websiteUrl: "https://ada.test", hideComments: false },
          apps: [],
          recentComments: [{ id: "c1", body: "Please add this", createdAt: "2026-01-02T00:00:00Z", featureRequestId: "fr_1", featureRequestTitle: "Dark mode", appId: "app_1", appName: "Test app" }],
          hideComments: false,
        },
      }),
    ]);
    expect(await screen.findByRole("header", { name: "Ada" })).toBeTruthy();
    expect(screen.getByTestId("tidings-avatar-image", { includeHiddenElements: true }).props.source).toEqual({ uri: "https://img.test/ada.png" });
    expect(screen.getByText("Builds things")).toBeTruthy();
    expect(screen.getByText("Please add this")).toBeTruthy();
    expect(screen.getByText(/^Dark mode · /)).toBeTruthy();
    jest.mocked(Linking.openURL).mockResolvedValue(true);
    fireEvent.press(screen.getByRole("link", { name: "https://ada.test" }));
    expect(Linking.openURL).toHaveBeenCalledWith("https://ada.test");
    // A picture that fails to load gives way to the initial.
    fireEvent(screen.getByTestId("tidings-avatar-image", { includeHiddenElements: true }), "error");
    expect(screen.getByTestId("tidings-avatar-initial", { includeHiddenElements: true }).props.children).toBe("A");
  });

  test("falls back to the initial of the fallback name, drops unsafe links and respects hidden comments", async () => {
    setup([
      profileAt({
        status: 200,
        body: { profile: { displayName: "", avatarUrl: "http://img.test/plain.png", websiteUrl: "javascript:alert(1)", hideComments: true }, recentComments: [{ id: "c1", body: "Secret" }] },
      }),
    ]);
    expect(await screen.findByRole("header", { name: "Comment author" })).toBeTruthy();
    expect(screen.getByTestId("tidings-avatar-initial", { includeHiddenElements: true }).props.children).toBe("C");
    expect(screen.queryByTestId("tidings-avatar-image", { includeHiddenElements: true })).toBeNull();
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.queryByText("Secret")).toBeNull();
    expect(screen.getByText("No public comments.")).toBeTruthy();
  });

  test("says a missing user does not exist, without a retry", async () => {
    setup([profileAt({ status: 404, body: { error: "User not found", code: "user_not_found" } })], "de");
    expect(await screen.findByText("Dieses Profil gibt es nicht.")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
  });

  test("offers a retry after a failure, and shows the profile once it loads", async () => {
    let down = true;
    const { api } = setup([
      profileAt(() => (down ? { status: 503, body: { error: "Down", code: "service_unavailable" } } : { status: 200, body: { profile: { displayName: "Bob" }, publicApps: [], recentComments: [] } })),
    ]);
    const retry = await screen.findByRole("button", { name: "Try again" });
    down = false;
    fireEvent.press(retry);
    expect(await screen.findByRole("header", { name: "Bob" })).toBeTruthy();
    expect(screen.getByTestId("tidings-avatar-initial", { includeHiddenElements: true }).props.children).toBe("B");
    expect(screen.getByText("No public comments.")).toBeTruthy();
    await waitFor(() => expect(api.calls.filter((c) => c.url.pathname === "/api/v1/users/u_1/profile")).toHaveLength(2));
  });
});
