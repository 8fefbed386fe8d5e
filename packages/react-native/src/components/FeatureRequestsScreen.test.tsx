import { FeedbackClient, memoryStorage, type FetchLike, type Timers } from "@tidings/client";
import { allLocales } from "@tidings/react-core/locales";
import { demoConfig, fakeFetch, item, type FakeRoute } from "@tidings/react-core/testing";
import { describe, expect, test } from "@jest/globals";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { FeatureRequestsScreen, type FeatureRequestsScreenProps } from "./FeatureRequestsScreen.js";

const config = (sdk: Record<string, unknown> = {}): FakeRoute => ({ url }) =>
  url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig(sdk) } : undefined;
const on = (method: string, path: string, answer: (request: Parameters<FakeRoute>[0]) => ReturnType<FakeRoute>): FakeRoute => (r) =>
  r.method === method && r.url.pathname === path ? answer(r) : undefined;
const page = (requests: unknown[], extra: Record<string, unknown> = {}) => ({ status: 200, body: { requests, total: requests.length, hasMore: false, nextCursor: null, ...extra } });

/** Timers the test moves by hand: `advance` fires what falls due, in order, inside `act`. */
function manualClock() {
  let now = 0;
  let seq = 0;
  const due = new Map<number, { at: number; fire: () => void }>();
  const timers: Timers = {
    now: () => now,
    setTimeout: (fire, ms) => {
      seq += 1;
      due.set(seq, { at: now + ms, fire });
      return seq;
    },
    clearTimeout: (handle) => void due.delete(handle as number),
  };
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  async function advance(ms: number) {
    const end = now + ms;
    for (;;) {
      const next = [...due.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (next === undefined) break;
      due.delete(next[0]);
      now = next[1].at;
      await act(async () => {
        next[1].fire();
        await settle();
      });
    }
    now = end;
    await act(settle);
  }
  return { timers, advance, now: () => now };
}

function setup(routes: FakeRoute[], options: { timers?: Timers; fetch?: (inner: FetchLike) => FetchLike } = {}) {
  const api = fakeFetch(routes);
  const client = new FeedbackClient({
    baseUrl: "http://api.test",
    appKey: "app_test",
    fetch: options.fetch === undefined ? api.fetch : options.fetch(api.fetch),
    storage: memoryStorage(),
    userToken: "tester",
    warn: () => undefined,
    ...(options.timers === undefined ? {} : { timers: options.timers }),
  });
  const lists = () => api.calls.filter((c) => c.url.pathname === "/api/v1/feature-requests" && c.method === "GET").map((c) => c.url.searchParams);
  return { api, client, lists };
}

function show(client: FeedbackClient, props: FeatureRequestsScreenProps = {}, locale = "en") {
  return render(
    <TidingsProvider client={client} locale={locale} locales={allLocales}>
      <FeatureRequestsScreen {...props} />
    </TidingsProvider>,
  );
}

describe("FeatureRequestsScreen", () => {
  test("rolls a failed vote back, ignores a second tap while it is in flight, badges pending requests and does not let users vote on their own", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let votesSent = 0;
    const { client } = setup(
      [config(), on("GET", "/api/v1/feature-requests", () => page([item("1"), item("2", { approved: false, isOwnRequest: true, title: "Fresh idea", commentCount: 2 })]))],
      {
        // Votes hang until released, then fail: the optimistic count must roll back.
        fetch: (inner) => async (input, init) => {
          if (String(input).endsWith("/vote")) {
            votesSent += 1;
            await gate;
            return new Response(JSON.stringify({ error: "boom", code: "internal_error" }), { status: 500, headers: { "content-type": "application/json" } });
          }
          return inner(input, init);
        },
      },
    );
    show(client);
    const vote = await screen.findByRole("button", { name: "Vote for Request 1" });
    expect(screen.getByText("Pending review")).toBeTruthy();
    expect(screen.getByText("2 comments")).toBeTruthy();

    const own = screen.getByRole("button", { name: "Your request" });
    expect(own.props.accessibilityState).toMatchObject({ disabled: true });
    fireEvent.press(own);
    expect(votesSent).toBe(0);

    fireEvent.press(vote);
    const pressed = screen.getByRole("button", { name: "Remove your vote for Request 1" });
    expect(within(pressed).getByText("4")).toBeTruthy();
    fireEvent.press(pressed);
    await act(async () => {
      release();
      await gate;
    });
    await waitFor(() => expect(within(screen.getByRole("button", { name: "Vote for Request 1" })).getByText("3")).toBeTruthy());
    expect(votesSent).toBe(1);
    expect(screen.getByRole("alert", { name: /went wrong/ })).toBeTruthy();
  });

  test("paces search: one request 250 ms after typing, the next after 2.5 s, and a 429 keeps the results with a notice for the 60 s cooldown", async () => {
    const clock = manualClock();
    let limited = false;
    const { client, lists } = setup(
      [
        config(),
        on("GET", "/api/v1/feature-requests", ({ url }) => {
          const q = url.searchParams.get("q") ?? "";
          if (q !== "" && limited) return { status: 429, body: { error: "Too many searches", code: "rate_limited" } };
          if (q === "") return page([item("1"), item("2")]);
          return page([item(`q-${q}`, { title: `Match for ${q}` })]);
        }),
      ],
      { timers: clock.timers },
    );
    show(client);
    await screen.findByText("Request 1");
    const searches = () => lists().map((p) => p.get("q") ?? "");
    expect(searches()).toEqual([""]);
    const search = screen.getByLabelText("Search requests");

    fireEvent.changeText(search, "d");
    await clock.advance(100);
    fireEvent.changeText(search, "dark");
    await clock.advance(249);
    expect(searches()).toEqual([""]);
    await clock.advance(1);
    expect(searches()).toEqual(["", "dark"]);
    await screen.findByText("Match for dark");

    // 250 ms after the keystroke, but only 250 ms after the last search: waits for the 2.5 s spacing.
    fireEvent.changeText(search, "dark mode");
    await clock.advance(250);
    expect(searches()).toEqual(["", "dark"]);
    await clock.advance(2000);
    expect(searches()).toEqual(["", "dark"]);
    await clock.advance(250);
    expect(searches()).toEqual(["", "dark", "dark mode"]);
    await screen.findByText("Match for dark mode");

    limited = true;
    fireEvent.changeText(search, "sync");
    await clock.advance(2500);
    expect(searches()).toEqual(["", "dark", "dark mode", "sync"]);
    await screen.findByText("You are searching quickly; results will refresh in a moment.");
    expect(screen.getByText("Match for dark mode")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();

    // Typing during the cooldown fetches nothing; the notice stays for the whole 60 s.
    fireEvent.changeText(search, "sync ios");
    await clock.advance(59_000);
    expect(searches()).toHaveLength(4);
    expect(screen.getByText("You are searching quickly; results will refresh in a moment.")).toBeTruthy();
    limited = false;
    await clock.advance(1000);
    expect(searches()).toEqual(["", "dark", "dark mode", "sync", "sync ios"]);
    await screen.findByText("Match for sync ios");
    expect(screen.queryByText("You are searching quickly; results will refresh in a moment.")).toBeNull();
  });

  test("passes searchRateLimiterOptions to the pacer", async () => {
    const clock = manualClock();
    const { client, lists } = setup([config(), on("GET", "/api/v1/feature-requests", () => page([item("1")]))], { timers: clock.timers });
    show(client, { searchRateLimiterOptions: { debounceMs: 50, minSpacingMs: 500 } });
    await screen.findByText("Request 1");
    const search = screen.getByLabelText("Search requests");
    fireEvent.changeText(search, "one");
    await clock.advance(50);
    fireEvent.changeText(search, "two");
    await clock.advance(50);
    expect(lists().map((p) => p.get("q"))).toEqual([null, "one"]);
    // Spaced 500 ms from "one" (at 50 ms), not 2.5 s.
    await clock.advance(449);
    expect(lists().map((p) => p.get("q"))).toEqual([null, "one"]);
    await clock.advance(1);
    expect(lists().map((p) => p.get("q"))).toEqual([null, "one", "two"]);
  });

  test("filters by version: the chip sends its versionId, All versions clears it", async () => {
    const clock = manualClock();
    const version = (id: string, label: string, position: number) => ({ id, appId: "app_1", label, position, released: true, createdAt: "", updatedAt: "" });
    const { client, lists } = setup(
      [
        config(),
        on("GET", "/api/v1/public/versions/app_test", () => ({ status: 200, body: { versions: [version("v2", "2.0", 2), version("v1", "1.0", 1)] } })),
        on("GET", "/api/v1/feature-requests", ({ url }) =>
          url.searchParams.get("versionId") === "v2" ? page([item("20", { title: "Only in 2.0", versionLabel: "2.0" })]) : page([item("1")]),
        ),
      ],
      { timers: clock.timers },
    );
    show(client);
    await screen.findByText("Request 1");
    const chip = await screen.findByRole("radio", { name: "2.0" });
    expect(screen.getByRole("radio", { name: "All versions" }).props.accessibilityState).toMatchObject({ checked: true });
    fireEvent.press(chip);
    await clock.advance(250);
    await screen.findByText("Only in 2.0");
    expect(lists().at(-1)?.get("versionId")).toBe("v2");
    expect(screen.queryByText("Request 1")).toBeNull();

    fireEvent.press(screen.getByRole("radio", { name: "All versions" }));
    await clock.advance(250);
    await screen.findByText("Request 1");
    expect(lists().at(-1)?.get("versionId")).toBeNull();
  });

  test("sorts: a sort chip fetches that order", async () => {
    const { client, lists } = setup([
      config(),
      on("GET", "/api/v1/feature-requests", ({ url }) => (url.searchParams.get("sort") === "newest" ? page([item("9", { title: "Brand new" })]) : page([item("1")]))),
    ]);
    show(client);
    await screen.findByText("Request 1");
    fireEvent.press(screen.getByRole("radio", { name: "Newest" }));
    await screen.findByText("Brand new");
    expect(lists().map((p) => p.get("sort"))).toEqual(["top", "newest"]);
  });

  test("loads the next page at the end of the list once, appending without duplicates", async () => {
    const { client, lists } = setup([
      config(),
      on("GET", "/api/v1/feature-requests", ({ url }) =>
        url.searchParams.get("cursor") === "c1"
          ? page([item("2"), item("3")], { total: 3, hasMore: false })
          : page([item("1"), item("2")], { total: 3, hasMore: true, nextCursor: "c1" }),
      ),
    ]);
    show(client);
    await screen.findByText("Request 1");
    const list = screen.getByTestId("tidings-requests-list");
    // The end is reached twice before the list re-renders: one page is fetched.
    await act(async () => {
      fireEvent(list, "endReached");
      fireEvent(list, "endReached");
    });
    await screen.findByText("Request 3");
    expect(lists().map((p) => p.get("cursor"))).toEqual([null, "c1"]);
    expect(screen.getAllByText("Request 2")).toHaveLength(1);
    expect(screen.getByText("3 requests")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
    fireEvent(list, "endReached");
    expect(lists()).toHaveLength(2);
  });

  test("a 429 on the next page starts the search cooldown with its notice instead of an error", async () => {
    const clock = manualClock();
    const { client, lists } = setup(
      [
        config(),
        on("GET", "/api/v1/feature-requests", ({ url }) =>
          url.searchParams.get("cursor") === "c1"
            ? { status: 429, body: { error: "Too many requests", code: "rate_limited" } }
            : page([item("1")], { total: 2, hasMore: true, nextCursor: "c1" }),
        ),
      ],
      { timers: clock.timers },
    );
    show(client);
    fireEvent.press(await screen.findByRole("button", { name: "Load more" }));
    await screen.findByText("You are searching quickly; results will refresh in a moment.");
    expect(screen.getByText("Request 1")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    await clock.advance(60_000);
    expect(screen.queryByText("You are searching quickly; results will refresh in a moment.")).toBeNull();
    expect(lists()).toHaveLength(2);
  });

  test("the Load more button fetches the next page", async () => {
    const { client, lists } = setup([
      config(),
      on("GET", "/api/v1/feature-requests", ({ url }) =>
        url.searchParams.get("cursor") === "c1" ? page([item("3")], { total: 2 }) : page([item("1")], { total: 2, hasMore: true, nextCursor: "c1" }),
      ),
    ]);
    show(client);
    fireEvent.press(await screen.findByRole("button", { name: "Load more" }));
    await screen.findByText("Request 3");
    expect(lists()).toHaveLength(2);
  });

  test("pull to refresh fetches the list again and shows what changed", async () => {
    let requests = [item("1")];
    const { client, lists } = setup([config(), on("GET", "/api/v1/feature-requests", () => page(requests))]);
    show(client);
    await screen.findByText("Request 1");
    requests = [item("1"), item("5", { title: "Added meanwhile" })];
    fireEvent(screen.getByTestId("tidings-requests-list"), "refresh");
    await screen.findByText("Added meanwhile");
    expect(lists()).toHaveLength(2);
  });

  test("shows the empty state, and the error state whose retry fetches again", async () => {
    let broken = true;
    const { client, lists } = setup([
      config(),
      on("GET", "/api/v1/feature-requests", () => (broken ? { status: 500, body: { error: "boom", code: "internal_error" } } : page([]))),
    ]);
    show(client);
    const retry = await screen.findByRole("button", { name: "Try again" });
    expect(screen.getByText("Something went wrong. Please try again.")).toBeTruthy();
    broken = false;
    fireEvent.press(retry);
    await screen.findByText("No requests yet.");
    expect(lists()).toHaveLength(2);
  });

  test("opens a tapped request in the built-in detail, or hands it to onOpenRequest", async () => {
    const routes = [
      config(),
      on("GET", "/api/v1/feature-requests", () => page([item("1", { description: "Make it dark" })])),
      on("GET", "/api/v1/feature-requests/1/comments", () => ({ status: 200, body: { comments: [{ id: "c1", featureRequestId: "1", body: "Yes please", authorName: "Ada", createdAt: "2026-01-02T00:00:00Z" }], total: 1 } })),
    ];
    const first = setup(routes);
    const view = show(first.client);
    fireEvent.press(await screen.findByText("Request 1"));
    await screen.findByText("Yes please");
    fireEvent.press(screen.getByRole("button", { name: "Back" }));
    await waitFor(() => expect(screen.queryByText("Yes please")).toBeNull());
    view.unmount();

    const second = setup(routes);
    const opened: string[] = [];
    show(second.client, { onOpenRequest: (i) => opened.push(i.id) });
    fireEvent.press(await screen.findByText("Request 1"));
    expect(opened).toEqual(["1"]);
    expect(screen.queryByRole("button", { name: "Back" })).toBeNull();
    expect(second.api.calls.some((c) => c.url.pathname.endsWith("/comments"))).toBe(false);
  });

  test("follows the host's login and logout: the list is fetched again as that user, with their votes", async () => {
    const api = fakeFetch([
      config(),
      on("GET", "/api/v1/feature-requests", ({ headers }) => page([item("1", { hasVoted: headers["x-user-token"] === "user-a" })])),
    ]);
    const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), warn: () => undefined });
    const ui = (userToken?: string) => (
      <TidingsProvider client={client} locale="en" userToken={userToken}>
        <FeatureRequestsScreen />
      </TidingsProvider>
    );
    const view = render(ui(undefined));
    await screen.findByRole("button", { name: "Vote for Request 1" });
    view.rerender(ui("user-a"));
    await screen.findByRole("button", { name: "Remove your vote for Request 1" });
    view.rerender(ui(undefined));
    await screen.findByRole("button", { name: "Vote for Request 1" });
    const tokens = api.calls.filter((c) => c.url.pathname === "/api/v1/feature-requests").map((c) => c.headers["x-user-token"]);
    const anonymous = await client.tokens.getToken();
    expect(tokens).toEqual([anonymous, "user-a", anonymous]);
  });

  test("shows the unavailable state and fetches nothing when the featureRequests flag is off", async () => {
    const { client, api } = setup([config({ features: { featureRequests: false } })]);
    show(client);
    await screen.findByText("This feature is not available right now.");
    await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
    expect(api.calls.map((c) => c.url.pathname)).toEqual(["/api/v1/public/config/app_test"]);
    expect(screen.queryByLabelText("Search requests")).toBeNull();
  });

  test("shows a board switcher only when the user sees two boards, lists the board picked, shows tags and filters on them", async () => {
    const board = (slug: string, name: string, position: number) => ({ id: `brd_${slug}`, name, slug, description: "", position, visibility: "public", isDefault: position === 0 });
    let boards = [board("feature-requests", "Feature requests", 0)];
    const ui = { name: "UI", slug: "ui", color: "#336699" };
    const clock = manualClock();
    const { client, lists } = setup(
      [
      config(),
      on("GET", "/api/v1/public/apps/app_test/boards", () => ({ status: 200, body: { boards } })),
      on("GET", "/api/v1/feature-requests", ({ url }) => {
        const all = [item("1", { tags: [ui], boardId: "brd_feature-requests" }), item("2", { boardId: "brd_bugs", tags: [] })];
        return page(all.filter((i) => (url.searchParams.get("board") ?? "") === "" || i.boardId === `brd_${url.searchParams.get("board")}`).filter((i) => url.searchParams.getAll("tag").every((t) => i.tags.some((x) => x.slug === t))));
      }),
      ],
      { timers: clock.timers },
    );
    const first = show(client);
    const row = await screen.findByRole("button", { name: "Request 1, UI" });
    expect(within(row).getByText("UI")).toBeTruthy();
    await waitFor(() => expect(screen.getByRole("checkbox", { name: "UI" })).toBeTruthy());
    expect(screen.queryByLabelText("Board")).toBeNull();
    first.unmount();

    boards = [board("feature-requests", "Feature requests", 0), board("bugs", "Bugs", 1)];
    const picked: (string | undefined)[] = [];
    show(client, { onBoardChange: (slug) => picked.push(slug) });
    const switcher = await screen.findByLabelText("Board");
    expect(within(switcher).getByRole("radio", { name: "All boards" }).props.accessibilityState).toMatchObject({ checked: true });
    fireEvent.press(within(switcher).getByRole("radio", { name: "Bugs" }));
    await clock.advance(250);
    await waitFor(() => expect(screen.queryByText("Request 1")).toBeNull());
    expect(screen.getByText("Request 2")).toBeTruthy();
    expect(picked).toEqual(["bugs"]);
    fireEvent.press(within(switcher).getByRole("radio", { name: "All boards" }));
    await clock.advance(250);
    await screen.findByText("Request 1");
    fireEvent.press(screen.getByRole("checkbox", { name: "UI" }));
    await clock.advance(250);
    await waitFor(() => expect(screen.queryByText("Request 2")).toBeNull());
    expect(screen.getByRole("checkbox", { name: "UI" }).props.accessibilityState).toMatchObject({ checked: true });
    expect(lists().slice(-3).map((p) => `${p.get("board") ?? "*"}|${p.getAll("tag").join(",")}`)).toEqual(["bugs|", "*|", "*|ui"]);
  });
});

