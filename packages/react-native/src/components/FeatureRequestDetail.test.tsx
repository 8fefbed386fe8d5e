import { FeedbackClient, memoryStorage, type FeatureRequestItem } from "@tidings/client";
import { allLocales } from "@tidings/react-core/locales";
import { demoConfig, fakeFetch, item, type FakeRoute } from "@tidings/react-core/testing";
import { describe, expect, test } from "@jest/globals";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { FeatureRequestDetail, type FeatureRequestDetailProps } from "./FeatureRequestDetail.js";

const config: FakeRoute = ({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined);
const comment = (id: string, body: string, authorName: string, extra: Record<string, unknown> = {}) => ({
  id,
  featureRequestId: "1",
  body,
  authorName,
  createdAt: "2026-01-02T00:00:00Z",
  ...extra,
});
const request = item("1", { description: "Make it dark", columnName: "Planned", commentCount: 2 }) as FeatureRequestItem;

function show(routes: FakeRoute[], props: Partial<FeatureRequestDetailProps> = {}, locale = "en") {
  const api = fakeFetch([config, ...routes]);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
  render(
    <TidingsProvider client={client} locale={locale} locales={allLocales}>
      <FeatureRequestDetail item={request} {...props} />
    </TidingsProvider>,
  );
  return api;
}

describe("FeatureRequestDetail", () => {
  test("shows the request with its comments threaded, and a reply to a reply is posted to the thread with parentId", async () => {
    let posted = false;
    const api = show([
      ({ method, url }) =>
        method === "GET" && url.pathname === "/api/v1/feature-requests/1/comments"
          ? { status: 200, body: { comments: [comment("c1", "Yes please", "Ada"), comment("c2", "Same here", "Bob", { parentId: "c1" })], total: 2, hasMore: false, nextCursor: null } }
          : undefined,
      ({ method, url, body }) => {
        if (method !== "POST" || url.pathname !== "/api/v1/feature-requests/1/comments") return undefined;
        posted = true;
        return { status: 201, body: comment("c3", (body as { body: string }).body, "Tester", { parentId: "c1" }) };
      },
    ]);
    expect(screen.getByText("Request 1")).toBeTruthy();
    expect(screen.getByText("Make it dark")).toBeTruthy();
    expect(screen.getByText("Planned")).toBeTruthy();
    await screen.findByText("Yes please");
    expect(screen.getByText("Same here")).toBeTruthy();

    fireEvent.press(screen.getByRole("button", { name: "Reply to Bob" }));
    const box = screen.getByPlaceholderText("Reply to Bob");
    fireEvent.changeText(box, "Agreed");
    fireEvent.press(screen.getByRole("button", { name: "Post" }));
    await screen.findByText("Agreed");
    expect(posted).toBe(true);
    const sent = api.calls.find((c) => c.method === "POST")!.body;
    expect(sent).toMatchObject({ body: "Agreed", parentId: "c1" });
    // The reply form closes; the comment composer is back.
    expect(screen.queryByPlaceholderText("Reply to Bob")).toBeNull();
    expect(screen.getByLabelText("Add a comment")).toBeTruthy();
  });

  test("loads more comments on demand, without repeating one", async () => {
    const api = show(
      [
        ({ method, url }) => {
          if (method !== "GET" || url.pathname !== "/api/v1/feature-requests/1/comments") return undefined;
          return url.searchParams.get("cursor") === "k1"
            ? { status: 200, body: { comments: [comment("c2", "Second", "Bob"), comment("c3", "Third", "Cy")], total: 3, hasMore: false, nextCursor: null } }
            : { status: 200, body: { comments: [comment("c1", "First", "Ada"), comment("c2", "Second", "Bob")], total: 3, hasMore: true, nextCursor: "k1" } };
        },
      ],
      { commentPageSize: 2 },
    );
    await screen.findByText("First");
    fireEvent.press(screen.getByRole("button", { name: "More comments" }));
    await screen.findByText("Third");
    expect(screen.getAllByText("Second")).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "More comments" })).toBeNull();
    expect(api.calls.filter((c) => c.url.pathname.endsWith("/comments")).map((c) => [c.url.searchParams.get("limit"), c.url.searchParams.get("cursor")])).toEqual([
      ["2", null],
      ["2", "k1"],
    ]);
  });

  test("keeps the comment and shows the localized error when posting fails", async () => {
    show(
      [
        ({ method, url }) => (method === "GET" && url.pathname.endsWith("/comments") ? { status: 200, body: { comments: [], total: 0 } } : undefined),
        ({ method, url }) => (method === "POST" && url.pathname.endsWith("/comments") ? { status: 429, body: { error: "Too many comments", code: "rate_limited" } } : undefined),
      ],
      {},
      "de",
    );
    await screen.findByText("Noch keine Kommentare.");
    const box = screen.getByLabelText("Kommentar schreiben");
    fireEvent.changeText(box, "Bitte!");
    fireEvent.press(screen.getByRole("button", { name: "Senden" }));
    await screen.findByRole("alert", { name: /Zu viele Anfragen/ });
    expect(screen.getByLabelText("Kommentar schreiben").props.value).toBe("Bitte!");
  });

  test("votes on its own copy when no list's votes are given, and reports the change", async () => {
    const changes: unknown[] = [];
    show(
      [
        ({ method, url }) => (method === "GET" && url.pathname.endsWith("/comments") ? { status: 200, body: { comments: [], total: 0 } } : undefined),
        ({ method, url }) => (method === "POST" && url.pathname === "/api/v1/feature-requests/1/vote" ? { status: 200, body: { voted: true, voteCount: 4 } } : undefined),
      ],
      { onChange: (patch) => changes.push(patch) },
    );
    fireEvent.press(await screen.findByRole("button", { name: "Vote for Request 1" }));
    await waitFor(() => expect(within(screen.getByRole("button", { name: "Remove your vote for Request 1" })).getByText("4")).toBeTruthy());
    expect(changes.at(-1)).toEqual({ hasVoted: true, voteCount: 4 });
  });
});
