import { FeedbackClient, memoryStorage } from "@tidings/client";
import { column, demoConfig, fakeFetch, item, type FakeRoute } from "@tidings/react-core/testing";
import { describe, expect, test } from "@jest/globals";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { RoadmapBoardScreen } from "./RoadmapBoardScreen.js";

// A cold first run compiles modules while a query waits; give it the time.
const config = (sdk: Record<string, unknown> = {}): FakeRoute => ({ url }) =>
  url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig(sdk) } : undefined;
const on = (method: string, path: string, answer: ReturnType<FakeRoute> | (() => ReturnType<FakeRoute>)): FakeRoute => (r) =>
  r.method === method && r.url.pathname === path ? (typeof answer === "function" ? answer() : answer) : undefined;

const columns = on("GET", "/api/v1/public/columns/app_test", { status: 200, body: { columns: [column("b", 2), column("a", 1), column("h", 3, false)] } });
const requests = on("GET", "/api/v1/feature-requests", {
  status: 200,
  body: { requests: [item("1", { columnId: "a" }), item("2", { columnId: "h" }), item("3", { columnId: "gone" }), item("4", { columnId: "a", approved: false })], total: 4 },
});

function setup(routes: FakeRoute[]) {
  const api = fakeFetch(routes);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
  render(
    <TidingsProvider client={client} locale="en">
      <RoadmapBoardScreen />
    </TidingsProvider>,
  );
  return api;
}

/** Lets every pending promise (and the renders they cause) run. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

describe("RoadmapBoardScreen", () => {
  test("shows a tab per visible column in position order, then Other with the hidden and deleted columns' requests", async () => {
    setup([config(), columns, requests]);
    const tabs = await screen.findAllByRole("tab");
    expect(tabs.map((tab) => tab.props.accessibilityLabel)).toEqual(["Column a, 2 requests", "Column b, 0 requests", "Other, 2 requests"]);
    expect(screen.getByText("Request 1")).toBeTruthy();
    expect(screen.getByText("Pending review")).toBeTruthy();

    fireEvent.press(screen.getByRole("tab", { name: "Other, 2 requests" }));
    expect(screen.getByText("Request 2")).toBeTruthy();
    expect(screen.getByText("Request 3")).toBeTruthy();
    expect(screen.queryByText("Request 1")).toBeNull();
  });

  test("switches tabs on press and marks the active one selected", async () => {
    setup([config(), columns, requests]);
    expect(await screen.findByRole("tab", { name: "Column a, 2 requests", selected: true })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Vote for Request 1" })).toBeTruthy();

    fireEvent.press(screen.getByRole("tab", { name: "Column b, 0 requests" }));
    expect(screen.getByRole("tab", { name: "Column b, 0 requests", selected: true })).toBeTruthy();
    expect(screen.getByRole("tab", { name: "Column a, 2 requests", selected: false })).toBeTruthy();
    expect(screen.getByText("Nothing here yet.")).toBeTruthy();
    expect(screen.queryByText("Request 1")).toBeNull();
  });

  test("shows the unavailable state and fetches nothing but the config when the roadmap flag is off", async () => {
    const api = setup([config({ features: { roadmap: false } }), columns, requests]);
    expect(await screen.findByText("This feature is not available right now.")).toBeTruthy();
    await settle();
    expect(api.calls.map((c) => c.url.pathname)).toEqual(["/api/v1/public/config/app_test"]);
    expect(screen.queryByRole("tab")).toBeNull();
  });

  test("shows a localized error with a retry that loads the board", async () => {
    let down = true;
    setup([config(), on("GET", "/api/v1/public/columns/app_test", () => (down ? { status: 503, body: { error: "Down", code: "internal_error" } } : undefined)), columns, requests]);
    expect(await screen.findByText("Something went wrong. Please try again.")).toBeTruthy();
    down = false;
    fireEvent.press(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.getAllByRole("tab")).toHaveLength(3));
  });
});
