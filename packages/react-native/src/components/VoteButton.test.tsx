import { FeedbackClient, memoryStorage } from "@tidings/client";
import { useFeatureRequests } from "@tidings/react-core";
import { demoConfig, fakeFetch, item, type FakeRoute } from "@tidings/react-core/testing";
import { describe, expect, test } from "@jest/globals";
import { fireEvent, render, screen, waitFor } from "@testing-library/react-native";
import { Text, View } from "react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { VoteButton } from "./VoteButton.js";

const config: FakeRoute = ({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined);

function List() {
  const list = useFeatureRequests();
  return (
    <View>
      {list.items.map((i) => (
        <View key={i.id}>
          <Text>{i.title}</Text>
          <VoteButton item={i} votes={list.votes} />
        </View>
      ))}
    </View>
  );
}

describe("VoteButton", () => {
  test("rolls a failed vote back to the count the server had", async () => {
    const api = fakeFetch([
      config,
      ({ method, url }) => (method === "GET" && url.pathname === "/api/v1/feature-requests" ? { status: 200, body: { requests: [item("1")], total: 1 } } : undefined),
      ({ method, url }) => (method === "POST" && url.pathname.endsWith("/vote") ? { status: 503, body: { error: "Down", code: "internal_error" } } : undefined),
    ]);
    const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
    render(
      <TidingsProvider client={client} locale="en">
        <List />
      </TidingsProvider>,
    );
    const button = await screen.findByRole("button", { name: "Vote for Request 1" });
    expect(screen.getByText("3")).toBeTruthy();
    fireEvent.press(button);
    expect(screen.getByText("4")).toBeTruthy();
    await waitFor(() => expect(screen.getByText("3")).toBeTruthy());
    expect(api.calls.filter((c) => c.method === "POST")).toHaveLength(1);
  });
});
