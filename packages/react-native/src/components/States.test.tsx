import { FeedbackClient, memoryStorage } from "@tidings/client";
import { demoConfig, fakeFetch } from "@tidings/react-core/testing";
import { describe, expect, jest, test } from "@jest/globals";
import { fireEvent, render, screen } from "@testing-library/react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { ErrorState, Unavailable } from "./States.js";

function client() {
  const api = fakeFetch([({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined)]);
  return new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), warn: () => undefined });
}

describe("States", () => {
  test("an error is announced as an alert and its retry is a button of its own", () => {
    const onRetry = jest.fn();
    render(
      <TidingsProvider client={client()} locale="en">
        <ErrorState message="Could not load." onRetry={onRetry} />
      </TidingsProvider>,
    );
    expect(screen.getByRole("alert").props.children).toBe("Could not load.");
    fireEvent.press(screen.getByRole("button", { name: "Try again" }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  test("the unavailable state is one element a screen reader reads whole", () => {
    render(
      <TidingsProvider client={client()} locale="en">
        <Unavailable message="Not here." />
      </TidingsProvider>,
    );
    expect(screen.getByRole("summary")).toBeTruthy();
    expect(screen.getByText("Not here.")).toBeTruthy();
  });
});
