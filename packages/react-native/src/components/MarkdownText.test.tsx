import { FeedbackClient, memoryStorage } from "@tidings/client";
import { demoConfig, fakeFetch } from "@tidings/react-core/testing";
import { afterEach, describe, expect, jest, test } from "@jest/globals";
import { fireEvent, render, screen } from "@testing-library/react-native";
import { useTidings } from "@tidings/react-core";
import { Linking, Text } from "react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { MarkdownText } from "./MarkdownText.js";

// A cold first run compiles modules while a query waits; give it the time.
/** Waits for the provider's config read, so no update lands after the test. */
function Settled() {
  return useTidings().configSettled ? <Text>settled</Text> : null;
}

async function show(markdown: string) {
  const api = fakeFetch([({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined)]);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
  render(
    <TidingsProvider client={client} locale="en">
      <MarkdownText markdown={markdown} />
      <Settled />
    </TidingsProvider>,
  );
  await screen.findByText("settled");
}

// Opening a URL leaves the app: that is the operating system's edge, so only it is replaced.
const openURL = () => jest.spyOn(Linking, "openURL").mockClear().mockResolvedValue(true);

afterEach(() => {
  jest.restoreAllMocks();
});

describe("MarkdownText", () => {
  test("renders headings as headers and list items as their text, with markers", async () => {
    await show("# Version 1.2\n\n- **Faster** sync\n- Offline mode\n\n1. first\n2. second\n\n- [x] shipped");
    expect(screen.getByRole("header", { name: "Version 1.2" })).toBeTruthy();
    expect(screen.getByText("Faster")).toBeTruthy();
    expect(screen.getByText("Faster sync")).toBeTruthy();
    expect(screen.getByText("Offline mode")).toBeTruthy();
    expect(screen.getAllByText("•")).toHaveLength(2);
    expect(screen.getByText("2.")).toBeTruthy();
    expect(screen.getByText("☑")).toBeTruthy();
  });

  test("opens an http link through Linking when pressed", async () => {
    const spy = openURL();
    await show("Read the [migration guide](https://example.com/guide) first.");
    fireEvent.press(screen.getByRole("link", { name: "migration guide" }));
    expect(spy).toHaveBeenCalledWith("https://example.com/guide");
  });

  test("shows a javascript: link as plain text that nothing can press", async () => {
    const spy = openURL();
    await show("[click me](javascript:alert(1)) and <javascript:alert(2)>");
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getByText("click me and javascript:alert(2)")).toBeTruthy();
    fireEvent.press(screen.getByText("click me and javascript:alert(2)"));
    expect(spy).not.toHaveBeenCalled();
  });

  test("shows raw HTML as the text it is, never as markup", async () => {
    await show("<b>raw</b> <script>alert(1)</script>");
    expect(screen.getByText("<b>raw</b> <script>alert(1)</script>")).toBeTruthy();
  });

  test("renders code blocks literally", async () => {
    await show("```\nconst a = **1**;\n```");
    expect(screen.getByText("const a = **1**;")).toBeTruthy();
  });
});
