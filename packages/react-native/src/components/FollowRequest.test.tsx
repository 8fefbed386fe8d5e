import { FeedbackClient, memoryStorage, type FeatureRequestItem } from "@tidings/client";
import { allLocales } from "@tidings/react-core/locales";
import { demoConfig, fakeFetch, item, type FakeRoute } from "@tidings/react-core/testing";
import { describe, expect, test } from "@jest/globals";
import { StyleSheet } from "react-native";
import { fireEvent, render, screen } from "@testing-library/react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { MIN_TOUCH } from "../theme.js";
import { FeatureRequestDetail } from "./FeatureRequestDetail.js";

const request = item("fr_1", { description: "Make it dark" }) as FeatureRequestItem;
const base: FakeRoute[] = [
  ({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined),
  ({ method, url }) => (method === "GET" && url.pathname.endsWith("/comments") ? { status: 200, body: { comments: [], total: 0 } } : undefined),
];
const subscription = (method: string, answer: ReturnType<FakeRoute>): FakeRoute => (r) =>
  r.method === method && r.url.pathname === "/api/v1/feature-requests/fr_1/subscription" ? answer : undefined;

function show(routes: FakeRoute[], provider: { userEmail?: string; locale?: string } = {}) {
  const api = fakeFetch([...base, ...routes]);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
  render(
    <TidingsProvider client={client} locale={provider.locale ?? "en"} locales={allLocales} userEmail={provider.userEmail}>
      <FeatureRequestDetail item={request} />
    </TidingsProvider>,
  );
  return () => api.calls.filter((c) => c.url.pathname.endsWith("/subscription")).map((c) => [c.method, c.body]);
}

describe("Following a request from its detail", () => {
  test("asks for an address, says to confirm by mail, and stops with the same address", async () => {
    const follows = show([subscription("POST", { status: 200, body: { following: false, pending: true } }), subscription("DELETE", { status: 200, body: { following: false, pending: false } })]);
    expect(screen.getByRole("header", { name: "Get updates on this request" })).toBeTruthy();
    const button = screen.getByRole("button", { name: "Get updates" });
    // Nothing to send until an address is typed.
    expect(button.props.accessibilityState).toMatchObject({ disabled: true });
    expect(StyleSheet.flatten(button.props.style).minHeight).toBeGreaterThanOrEqual(MIN_TOUCH);
    const field = screen.getByLabelText("Email address");
    expect(StyleSheet.flatten(field.props.style).minHeight).toBeGreaterThanOrEqual(MIN_TOUCH);
    fireEvent.changeText(field, " ada@example.com ");
    fireEvent.press(screen.getByRole("button", { name: "Get updates" }));
    await screen.findByText("Check your inbox to confirm.");
    fireEvent.press(screen.getByRole("button", { name: "Stop updates" }));
    await screen.findByRole("button", { name: "Get updates" });
    expect(screen.queryByText("Check your inbox to confirm.")).toBeNull();
    expect(follows()).toEqual([
      ["POST", { email: "ada@example.com" }],
      ["DELETE", { email: "ada@example.com" }],
    ]);
  });

  test("follows at once with the provider's address, without a field", async () => {
    const follows = show([subscription("POST", { status: 200, body: { following: true, pending: false } })], { userEmail: "ada@example.com" });
    expect(screen.queryByLabelText("Email address")).toBeNull();
    expect(screen.getByText("Updates go to ada@example.com.")).toBeTruthy();
    fireEvent.press(screen.getByRole("button", { name: "Get updates" }));
    await screen.findByText("You'll get updates on this request.");
    expect(screen.getByRole("button", { name: "Stop updates" })).toBeTruthy();
    expect(follows()).toEqual([["POST", { email: "ada@example.com" }]]);
  });

  test("shows a refused address as the problem, in the user's language, and keeps it typed", async () => {
    show(
      [subscription("POST", { status: 400, body: { error: "Validation failed", code: "validation_failed", details: { formErrors: [], fieldErrors: { email: ["Must be a valid email address"] } } } })],
      { locale: "fr" },
    );
    fireEvent.changeText(screen.getByLabelText("Adresse e-mail"), "ada@localhost");
    fireEvent.press(screen.getByRole("button", { name: "Recevoir les nouvelles" }));
    await screen.findByRole("alert", { name: "Saisissez une adresse e-mail valide." });
    expect(screen.getByLabelText("Adresse e-mail").props.value).toBe("ada@localhost");
  });
});
