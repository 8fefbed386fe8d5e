import { FeedbackClient, memoryStorage } from "@tidings/client";
import { allLocales } from "@tidings/react-core/locales";
import { demoConfig, fakeFetch, type FakeRoute } from "@tidings/react-core/testing";
import { describe, expect, test } from "@jest/globals";
import { act, fireEvent, render, screen } from "@testing-library/react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { WhatsNewScreen } from "./WhatsNewScreen.js";

// A cold first run compiles modules while a query waits; give it the time.
const CHANGELOG = "/api/v1/public/apps/app_test/changelog";
const config = (sdk: Record<string, unknown> = {}): FakeRoute => ({ url }) =>
  url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig(sdk) } : undefined;
// The tokens the server sends for that body (its parse is tested on the server).
const highlights = [
  { type: "heading", level: 2, children: [{ type: "text", text: "Highlights" }] },
  {
    type: "list",
    ordered: false,
    start: 1,
    items: [
      { checked: null, children: [{ type: "paragraph", children: [{ type: "strong", children: [{ type: "text", text: "Sync" }] }, { type: "text", text: " is " }, { type: "emphasis", children: [{ type: "text", text: "twice" }] }, { type: "text", text: " as fast" }] }] },
      { checked: null, children: [{ type: "paragraph", children: [{ type: "text", text: "See " }, { type: "link", href: "https://example.com/guide", title: null, children: [{ type: "text", text: "the guide" }] }] }] },
    ],
  },
];
const release = (id: string, extra: Record<string, unknown> = {}) => ({ id, title: `Release ${id}`, body: "", versionLabel: null, publishedAt: "2026-02-01T12:00:00Z", ...extra });
const firstPage: FakeRoute = ({ method, url }) =>
  method === "GET" && url.pathname === CHANGELOG && !url.searchParams.has("cursor")
    ? {
        status: 200,
        body: {
          entries: [release("cl_2", { title: "Faster sync", versionLabel: "1.2", body: "## Highlights\n\n- **Sync** is *twice* as fast\n- See [the guide](https://example.com/guide)", blocks: highlights })],
          hasMore: true,
          nextCursor: "c2",
        },
      }
    : undefined;
const secondPage: FakeRoute = ({ method, url }) =>
  method === "GET" && url.pathname === CHANGELOG && url.searchParams.get("cursor") === "c2"
    ? { status: 200, body: { entries: [release("cl_1", { title: "Hello world", publishedAt: "2026-01-05T12:00:00Z" })], hasMore: false, nextCursor: null } }
    : undefined;

function setup(routes: FakeRoute[], locale = "en") {
  const api = fakeFetch(routes);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
  render(
    <TidingsProvider client={client} locale={locale} locales={allLocales}>
      <WhatsNewScreen />
    </TidingsProvider>,
  );
  return api;
}

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

describe("WhatsNewScreen", () => {
  test("shows each release's title, version badge, localized date and notes as native text", async () => {
    setup([config(), firstPage], "de");
    expect(await screen.findByRole("header", { name: "Faster sync" })).toBeTruthy();
    expect(screen.getByText("v1.2")).toBeTruthy();
    expect(screen.getByText("1. Februar 2026")).toBeTruthy();
    expect(screen.getByRole("header", { name: "Highlights" })).toBeTruthy();
    expect(screen.getByText("Sync is twice as fast")).toBeTruthy();
    expect(screen.getByRole("link", { name: "the guide" })).toBeTruthy();
  });

  test("loads older releases with the next cursor", async () => {
    const api = setup([config(), firstPage, secondPage]);
    fireEvent.press(await screen.findByRole("button", { name: "Older releases" }));
    expect(await screen.findByText("Hello world")).toBeTruthy();
    expect(screen.getByText("Faster sync")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Older releases" })).toBeNull();
    expect(api.calls.filter((c) => c.url.pathname === CHANGELOG).map((c) => c.url.searchParams.get("cursor"))).toEqual([null, "c2"]);
  });

  test("subscribes the typed address and confirms it", async () => {
    const api = setup([config(), firstPage, ({ method, url }) => (method === "POST" && url.pathname === `${CHANGELOG}/subscribe` ? { status: 200, body: { subscribed: true } } : undefined)]);
    const field = await screen.findByLabelText("Email address");
    expect(field.props.keyboardType).toBe("email-address");
    expect(field.props.autoComplete).toBe("email");
    fireEvent.changeText(field, "  reader@example.com ");
    fireEvent.press(screen.getByRole("button", { name: "Subscribe" }));
    expect(await screen.findByText("Check your inbox to confirm your subscription.")).toBeTruthy();
    expect(screen.queryByLabelText("Email address")).toBeNull();
    expect(api.calls.filter((c) => c.method === "POST").map((c) => c.body)).toEqual([{ email: "reader@example.com" }]);
  });

  test("shows a refused subscription as a localized error and keeps the address", async () => {
    setup(
      [
        config(),
        firstPage,
        ({ method, url }) =>
          method === "POST" && url.pathname === `${CHANGELOG}/subscribe` ? { status: 429, body: { error: "Slow down", code: "rate_limited" }, headers: { "retry-after": "30" } } : undefined,
      ],
      "de",
    );
    const field = await screen.findByLabelText("E-Mail-Adresse");
    fireEvent.changeText(field, "reader@example.com");
    fireEvent.press(screen.getByRole("button", { name: "Abonnieren" }));
    expect(await screen.findByText("Zu viele Anfragen. Bitte versuche es in 30 Sekunden erneut.")).toBeTruthy();
    expect(screen.getByLabelText("E-Mail-Adresse").props.value).toBe("reader@example.com");
  });

  test("shows a load error with a retry that brings the releases", async () => {
    let down = true;
    setup([config(), () => (down ? { status: 503, body: { error: "Down", code: "internal_error" } } : undefined), firstPage]);
    expect(await screen.findByText("Something went wrong. Please try again.")).toBeTruthy();
    down = false;
    fireEvent.press(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Faster sync")).toBeTruthy();
  });

  test("is unavailable and fetches no releases when the changelog flag is off", async () => {
    const api = setup([config({ features: { changelog: false } }), firstPage]);
    expect(await screen.findByText("This feature is not available right now.")).toBeTruthy();
    await settle();
    expect(api.calls.map((c) => c.url.pathname)).toEqual(["/api/v1/public/config/app_test"]);
    expect(screen.queryByLabelText("Email address")).toBeNull();
  });
});
