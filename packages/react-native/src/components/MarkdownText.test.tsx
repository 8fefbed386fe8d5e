import { FeedbackClient, memoryStorage } from "@tidings/client";
import { demoConfig, fakeFetch } from "@tidings/react-core/testing";
import { afterEach, describe, expect, jest, test } from "@jest/globals";
import { fireEvent, render, screen } from "@testing-library/react-native";
import { useTidings, type MarkdownBlock, type MarkdownInline } from "@tidings/react-core";
import { Linking, Text } from "react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { MarkdownText } from "./MarkdownText.js";

// A cold first run compiles modules while a query waits; give it the time.
/** Waits for the provider's config read, so no update lands after the test. */
function Settled() {
  return useTidings().configSettled ? <Text>settled</Text> : null;
}

async function show(blocks: MarkdownBlock[] | undefined, markdown = "") {
  const api = fakeFetch([({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined)]);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
  render(
    <TidingsProvider client={client} locale="en">
      <MarkdownText blocks={blocks} markdown={markdown} />
      <Settled />
    </TidingsProvider>,
  );
  await screen.findByText("settled");
}

// Tokens as the server sends them in a changelog entry's `blocks` (its parse is tested there).
const text = (t: string): MarkdownInline => ({ type: "text", text: t });
const para = (...children: MarkdownInline[]): MarkdownBlock => ({ type: "paragraph", children });
const item = (...children: MarkdownInline[]) => ({ checked: null, children: [para(...children)] });

// Opening a URL leaves the app: that is the operating system's edge, so only it is replaced.
const openURL = () => jest.spyOn(Linking, "openURL").mockClear().mockResolvedValue(true);

afterEach(() => {
  jest.restoreAllMocks();
});

describe("MarkdownText", () => {
  test("renders headings as headers and list items as their text, with markers", async () => {
    await show([
      { type: "heading", level: 1, children: [text("Version 1.2")] },
      { type: "list", ordered: false, start: 1, items: [item({ type: "strong", children: [text("Faster")] }, text(" sync")), item(text("Offline mode"))] },
      { type: "list", ordered: true, start: 1, items: [item(text("first")), item(text("second"))] },
      { type: "list", ordered: false, start: 1, items: [{ checked: true, children: [para(text("shipped"))] }] },
    ]);
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
    await show([para(text("Read the "), { type: "link", href: "https://example.com/guide", title: null, children: [text("migration guide")] }, text(" first."))]);
    fireEvent.press(screen.getByRole("link", { name: "migration guide" }));
    expect(spy).toHaveBeenCalledWith("https://example.com/guide");
  });

  test("refuses a javascript: link or an http image even if a server sent one, showing their text", async () => {
    const spy = openURL();
    await show([
      para(
        { type: "link", href: "javascript:alert(1)", title: null, children: [text("click me")] },
        text(" and "),
        { type: "image", src: "http://x.example/a.png", alt: "picture", title: null },
      ),
    ]);
    expect(screen.queryByRole("link")).toBeNull();
    fireEvent.press(screen.getByText("click me and picture"));
    expect(spy).not.toHaveBeenCalled();
  });

  test("shows the Markdown as plain text, never as markup, when the server sent no blocks", async () => {
    const spy = openURL();
    await show(undefined, "# Title\n\n**bold** [click](https://example.com) <b>raw</b>");
    expect(screen.getByText("# Title\n\n**bold** [click](https://example.com) <b>raw</b>")).toBeTruthy();
    expect(screen.queryByRole("header")).toBeNull();
    expect(screen.queryByRole("link")).toBeNull();
    expect(spy).not.toHaveBeenCalled();
  });

  test("renders code blocks literally", async () => {
    await show([{ type: "code", text: "const a = **1**;", language: null }]);
    expect(screen.getByText("const a = **1**;")).toBeTruthy();
  });
});
