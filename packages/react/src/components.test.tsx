// @vitest-environment jsdom
import { FeedbackClient, memoryStorage, type FetchLike } from "@tidings/client";
import { Outbox } from "@tidings/client/outbox";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ChangelogOverlay } from "./components/ChangelogOverlay.js";
import { FeatureRequestList } from "./components/FeatureRequestList.js";
import { FeedbackComposer } from "./components/FeedbackComposer.js";
import { RoadmapBoard } from "./components/RoadmapBoard.js";
import { WhatsNew } from "./components/WhatsNew.js";
import { column, demoConfig, fakeFetch, item, type FakeRoute } from "@tidings/react-core/testing";
import { TidingsProvider } from "@tidings/react-core";
import { de } from "@tidings/react-core/locales/de";
import { fr } from "@tidings/react-core/locales/fr";

afterEach(cleanup);

const config = (sdk: Record<string, unknown> = {}): FakeRoute => ({ url }) =>
  url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig(sdk) } : undefined;
const on = (method: string, path: string | RegExp, answer: ReturnType<FakeRoute>): FakeRoute => (r) =>
  r.method === method && (typeof path === "string" ? r.url.pathname === path : path.test(r.url.pathname)) ? answer : undefined;

function setup(routes: FakeRoute[], storage = memoryStorage()) {
  const api = fakeFetch(routes);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage, userToken: "tester", warn: () => undefined });
  return { api, client };
}

describe("RoadmapBoard", () => {
  it("puts requests of hidden or unknown columns under the automatic Other tab", async () => {
    const { client } = setup([
      config(),
      on("GET", "/api/v1/public/columns/app_test", { status: 200, body: { columns: [column("b", 2), column("a", 1), column("h", 3, false)] } }),
      on("GET", "/api/v1/feature-requests", { status: 200, body: { requests: [item("1", { columnId: "a" }), item("2", { columnId: "h" }), item("3", { columnId: "gone" })], total: 3 } }),
    ]);
    render(<TidingsProvider client={client} locale="en"><RoadmapBoard /></TidingsProvider>);
    const tabs = await screen.findAllByRole("tab");
    expect(tabs.map((t) => t.textContent)).toEqual(["Column a1", "Column b0", "Other2"]);
    fireEvent.click(tabs[2]!);
    const panel = screen.getByRole("tabpanel");
    expect(within(panel).getByText("Request 2")).toBeTruthy();
    expect(within(panel).getByText("Request 3")).toBeTruthy();
  });

  it("shows the unavailable state and fetches no requests when the roadmap flag is off", async () => {
    const { client, api } = setup([config({ features: { roadmap: false } })]);
    render(<TidingsProvider client={client}><RoadmapBoard /></TidingsProvider>);
    await screen.findByText("This feature is not available right now.");
    await new Promise((r) => setTimeout(r, 30));
    expect(api.calls.map((c) => c.url.pathname)).toEqual(["/api/v1/public/config/app_test"]);
  });
});

describe("FeatureRequestList", () => {
  it("rolls a failed vote back, ignores a second tap while in flight, and shows the pending badge", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { client, api } = setup([
      config(),
      on("GET", "/api/v1/feature-requests", { status: 200, body: { requests: [item("1"), item("2", { approved: false, title: "Fresh idea" })], total: 2 } }),
    ]);
    expect(client.appKey).toBe("app_test");
    // Votes hang until released, then fail: the optimistic state must roll back.
    let votesSent = 0;
    const slowFetch: typeof api.fetch = async (input, init) => {
      if (String(input).endsWith("/vote")) {
        votesSent += 1;
        await gate;
        return new Response(JSON.stringify({ error: "boom", code: "internal" }), { status: 500, headers: { "content-type": "application/json" } });
      }
      return api.fetch(input, init);
    };
    const slow = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: slowFetch, userToken: "tester", warn: () => undefined });
    render(<TidingsProvider client={slow} locale="en"><FeatureRequestList /></TidingsProvider>);
    const vote = await screen.findByRole("button", { name: "Vote for Request 1" });
    expect(screen.getByText("Pending review")).toBeTruthy();
    fireEvent.click(vote);
    const pressed = screen.getByRole("button", { name: "Remove your vote for Request 1" });
    expect(pressed.textContent).toContain("4");
    fireEvent.click(pressed);
    await act(async () => {
      release();
      await gate;
    });
    await waitFor(() => expect(screen.getByRole("button", { name: "Vote for Request 1" }).textContent).toContain("3"));
    // The second tap came while the first vote was in flight: ignored.
    expect(votesSent).toBe(1);
    expect(screen.getByRole("alert").textContent).toMatch(/went wrong/);
  });

  it("loads more comments of an opened request on demand", async () => {
    const comment = (id: string, body: string) => ({ id, featureRequestId: "1", body, authorName: "Ada", createdAt: "2026-01-02T00:00:00Z" });
    const { client } = setup([
      config(),
      on("GET", "/api/v1/feature-requests", { status: 200, body: { requests: [item("1")], total: 1 } }),
      (r) =>
        r.method === "GET" && r.url.pathname === "/api/v1/feature-requests/1/comments"
          ? r.url.searchParams.get("cursor") === "k1"
            ? { status: 200, body: { comments: [comment("c2", "Second")], total: 2, hasMore: false, nextCursor: null } }
            : { status: 200, body: { comments: [comment("c1", "First")], total: 2, hasMore: true, nextCursor: "k1" } }
          : undefined,
    ]);
    render(<TidingsProvider client={client} locale="en"><FeatureRequestList /></TidingsProvider>);
    fireEvent.click(await screen.findByRole("button", { name: "Request 1" }));
    await screen.findByText("First");
    fireEvent.click(screen.getByRole("button", { name: "More comments" }));
    await screen.findByText("Second");
    expect(screen.queryByRole("button", { name: "More comments" })).toBeNull();
  });

  it("opens a request that is not on the loaded page by its id, and counts a vote on it", async () => {
    const { client, api } = setup([
      config(),
      on("GET", "/api/v1/feature-requests", { status: 200, body: { requests: [item("1")], total: 1 } }),
      on("GET", "/api/v1/feature-requests/far", { status: 200, body: item("far", { title: "Far away", voteCount: 7 }) }),
      on("GET", "/api/v1/feature-requests/far/comments", { status: 200, body: { comments: [], total: 0, hasMore: false, nextCursor: null } }),
      on("POST", "/api/v1/feature-requests/far/vote", { status: 200, body: { voted: true, voteCount: 8 } }),
    ]);
    const opened: (string | null)[] = [];
    render(
      <TidingsProvider client={client} locale="en">
        <FeatureRequestList openRequestId="far" onOpenRequest={(i) => opened.push(i?.id ?? null)} />
      </TidingsProvider>,
    );
    await screen.findByRole("heading", { name: "Far away" });
    expect(api.calls.some((c) => c.url.pathname === "/api/v1/feature-requests/far")).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: /Vote for Far away/ }));
    await waitFor(() => expect(screen.getByRole("button", { name: /Remove your vote for Far away/ }).textContent).toContain("8"));
    fireEvent.click(screen.getByRole("button", { name: "← Back" }));
    expect(opened).toEqual([null]);
  });

  it("lists similar requests in the compose sheet while the title is typed, and opens one", async () => {
    const { client, api } = setup([
      config(),
      on("GET", "/api/v1/feature-requests", { status: 200, body: { requests: [item("1")], total: 1 } }),
      (r) =>
        r.method === "GET" && r.url.pathname === "/api/v1/feature-requests/similar"
          ? { status: 200, body: { requests: r.url.searchParams.get("title") === "dark mo" ? [item("dm", { title: "Dark mode", voteCount: 42 })] : [] } }
          : undefined,
    ]);
    const opened: (string | null)[] = [];
    render(
      <TidingsProvider client={client} locale="en">
        <FeatureRequestList openRequestId={null} onOpenRequest={(i) => opened.push(i?.id ?? null)} />
      </TidingsProvider>,
    );
    fireEvent.click(await screen.findByRole("button", { name: "Suggest a feature" }));
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "da" } });
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "dark mo" } });
    const similar = await screen.findByRole("list", { name: "Already suggested? Vote for it instead:" });
    expect(within(similar).getByText("42 votes")).toBeTruthy();
    // Two characters are not looked up; nothing was proposed.
    expect(api.calls.filter((c) => c.url.pathname === "/api/v1/feature-requests/similar").map((c) => c.url.searchParams.get("title"))).toEqual(["dark mo"]);
    expect(api.calls.filter((c) => c.method === "POST")).toEqual([]);
    fireEvent.click(within(similar).getByRole("button", { name: "Dark mode" }));
    expect(opened).toEqual(["dm"]);
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("shows the unavailable state when the featureRequests flag is off", async () => {
    const { client } = setup([config({ features: { featureRequests: false } })]);
    render(<TidingsProvider client={client}><FeatureRequestList /></TidingsProvider>);
    await screen.findByText("This feature is not available right now.");
  });
});

describe("FeedbackComposer", () => {
  it("disables submission and ignores picks when the feedback flag is off", async () => {
    const { client } = setup([config({ features: { feedback: false } })]);
    render(<TidingsProvider client={client}><FeedbackComposer pickAttachment={() => ({ kind: "image", key: "k", url: "" })} /></TidingsProvider>);
    await screen.findByText("Feedback is not available right now.");
    expect((screen.getByRole("button", { name: "Send" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText("k")).toBeNull();
  });

  it("keeps the draft and shows the localized quota message after a 402, and reports a bad pick", async () => {
    const { client, api } = setup([
      config(),
      on("POST", "/api/v1/feedback", { status: 402, body: { error: "Monthly submission quota reached", code: "tier_limit_submissions" } }),
    ]);
    let pick: unknown = { kind: "image", key: "up_1", url: "https://files.test/1.png", filename: "shot.png" };
    render(<TidingsProvider client={client} locale="fr" locales={[fr]}><FeedbackComposer pickAttachment={() => pick} /></TidingsProvider>);
    await waitFor(() => expect(api.calls.length).toBe(1));
    fireEvent.change(screen.getByLabelText("Titre"), { target: { value: "Crash" } });
    fireEvent.change(screen.getByLabelText("Détails"), { target: { value: "On start" } });
    // Rule 4 without a picker: the web default is not allowed (ios, android), so the first allowed one is sent.
    expect(screen.queryByLabelText("Plateforme")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Ajouter des fichiers" }));
    await screen.findByText("shot.png");
    // An uploaded image shows by its address.
    expect(screen.getByText("shot.png").closest("li")!.querySelector("img")!.getAttribute("src")).toBe("https://files.test/1.png");
    pick = { nope: true };
    fireEvent.click(screen.getByRole("button", { name: "Ajouter des fichiers" }));
    await screen.findByText("Ce fichier ne peut pas être joint.");
    fireEvent.click(screen.getByRole("button", { name: "Envoyer" }));
    await screen.findByText(/limite mensuelle/);
    expect((screen.getByLabelText("Titre") as HTMLInputElement).value).toBe("Crash");
    expect((screen.getByLabelText("Détails") as HTMLTextAreaElement).value).toBe("On start");
    expect(screen.getByText("shot.png")).toBeTruthy();
    const sent = api.calls.find((c) => c.method === "POST")!.body as { platform: string; attachments: { key: string }[] };
    expect(sent.platform).toBe("ios");
    expect(sent.attachments.map((a) => a.key)).toEqual(["up_1"]);
  });

  it("asks for the platform only with showPlatformPicker: the allowlist, the rule-4 one selected, the choice sent", async () => {
    const { client, api } = setup([config(), on("POST", "/api/v1/feedback", { status: 201, body: { submissionId: "sub_1" } })]);
    const view = (showPlatformPicker?: boolean) => (
      <TidingsProvider client={client} locale="en">
        <FeedbackComposer showPlatformPicker={showPlatformPicker} />
      </TidingsProvider>
    );
    const { rerender } = render(view());
    await waitFor(() => expect(api.calls.length).toBe(1));
    expect(screen.queryByLabelText("Platform")).toBeNull();
    expect(screen.queryByText("iOS")).toBeNull();
    rerender(view(true));
    const picker = screen.getByLabelText("Platform") as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent)).toEqual(["iOS", "Android"]);
    expect(picker.value).toBe("ios");
    fireEvent.change(picker, { target: { value: "android" } });
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Crash" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await screen.findByText("Thank you! Your feedback was sent.");
    expect((api.calls.find((c) => c.method === "POST")!.body as { platform: string }).platform).toBe("android");
  });

  it("Screenshot of this screen attaches the host's capture, listed with its thumbnail, upload progress and a remove button", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const api = fakeFetch([config(), on("POST", "/api/v1/uploads/images", { status: 201, body: { kind: "image", key: "up_1", url: "https://files.test/up_1.png", filename: "screen.png" } })]);
    // Uploads wait for the gate, so the progress shows.
    const fetch: FetchLike = async (input, init) => {
      if (String(input).includes("/uploads/")) await gate;
      return api.fetch(input, init);
    };
    const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
    const urls = { created: [] as Blob[], revoked: [] as string[] };
    const scope = URL as unknown as { createObjectURL?: (blob: Blob) => string; revokeObjectURL?: (url: string) => void };
    scope.createObjectURL = (blob) => (urls.created.push(blob), "blob:screen");
    scope.revokeObjectURL = (url) => void urls.revoked.push(url);
    const shot = new Blob(["png"], { type: "image/png" });
    let captured: Blob | null = shot;
    const captureScreenshot = async () => (captured === null ? null : { file: captured, filename: "screen.png", mimeType: "image/png" });
    try {
      render(<TidingsProvider client={client} locale="en"><FeedbackComposer captureScreenshot={captureScreenshot} /></TidingsProvider>);
      await waitFor(() => expect(api.calls.length).toBe(1));
      const step = screen.getByRole("group", { name: "Attachments" });
      expect(step.getAttribute("aria-describedby")).toBe(within(step).getByText("A screenshot or a file helps us see what you see.").id);
      fireEvent.click(within(step).getByRole("button", { name: "Screenshot of this screen" }));
      expect(await screen.findByRole("progressbar", { name: "Uploading screen.png…" })).toBeTruthy();
      expect((screen.getByRole("button", { name: "Send" }) as HTMLButtonElement).disabled).toBe(true);
      const row = screen.getByText("screen.png").closest("li")!;
      expect(row.querySelector("img")!.getAttribute("src")).toBe("blob:screen");
      expect(urls.created).toEqual([shot]);
      await act(async () => {
        release();
        await gate;
      });
      expect(await screen.findByText("screen.png attached")).toBeTruthy();
      expect(screen.queryByRole("progressbar")).toBeNull();
      // No screenshot to give: nothing added.
      captured = null;
      fireEvent.click(screen.getByRole("button", { name: "Screenshot of this screen" }));
      await waitFor(() => expect((screen.getByRole("button", { name: "Screenshot of this screen" }) as HTMLButtonElement).disabled).toBe(false));
      expect(screen.getAllByRole("listitem")).toHaveLength(1);
      fireEvent.click(screen.getByRole("button", { name: "Remove screen.png" }));
      expect(screen.queryByText("screen.png")).toBeNull();
      expect(urls.revoked).toEqual(["blob:screen"]);
    } finally {
      delete scope.createObjectURL;
      delete scope.revokeObjectURL;
    }
  });

  it("a host picker that throws shows the localized error and keeps the draft", async () => {
    const { client, api } = setup([config()]);
    const pickAttachment = async () => {
      throw new Error("permission denied");
    };
    render(<TidingsProvider client={client} locale="de" locales={[de]}><FeedbackComposer pickAttachment={pickAttachment} /></TidingsProvider>);
    await waitFor(() => expect(api.calls.length).toBe(1));
    fireEvent.change(screen.getByLabelText("Titel"), { target: { value: "Absturz" } });
    fireEvent.click(screen.getByRole("button", { name: "Dateien hinzufügen" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Etwas ist schiefgelaufen. Bitte versuche es erneut.");
    expect((screen.getByLabelText("Titel") as HTMLInputElement).value).toBe("Absturz");
  });

  it("with an outbox, says a submission made without a connection is saved on the device, clears the draft and sends it once later", async () => {
    let online = false;
    const offline: FakeRoute = (r) => {
      if (!online && r.method === "POST") throw new TypeError("Failed to fetch");
      return undefined;
    };
    const { client, api } = setup([config(), offline, on("POST", "/api/v1/feedback", { status: 201, body: { submissionId: "sub_1" } })]);
    const outbox = new Outbox(client, { storage: memoryStorage() });
    render(<TidingsProvider client={client} locale="fr" locales={[fr]} outbox={outbox}><FeedbackComposer /></TidingsProvider>);
    await waitFor(() => expect(api.calls.length).toBe(1));
    fireEvent.change(screen.getByLabelText("Titre"), { target: { value: "Crash" } });
    fireEvent.change(screen.getByLabelText("Détails"), { target: { value: "On start" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer" }));
    expect((await screen.findByRole("status")).textContent).toBe("Enregistré sur cet appareil. L'envoi se fera dès le retour de la connexion.");
    expect((screen.getByLabelText("Titre") as HTMLInputElement).value).toBe("");
    expect((screen.getByLabelText("Détails") as HTMLTextAreaElement).value).toBe("");
    online = true;
    await act(() => outbox.flush());
    await screen.findByText("Merci ! Votre avis a été envoyé.");
    const posts = api.calls.filter((c) => c.method === "POST" && c.url.pathname === "/api/v1/feedback");
    expect(posts).toHaveLength(2);
    expect(posts[1]!.headers["idempotency-key"]).toBe(posts[0]!.headers["idempotency-key"]);
    expect(outbox.pending).toEqual([]);
  });
});

describe("ComposeSheet", () => {
  it("with an outbox, says a proposal made without a connection is saved on the device", async () => {
    const { client, api } = setup([
      config(),
      on("GET", "/api/v1/feature-requests", { status: 200, body: { requests: [], total: 0 } }),
      (r) => {
        if (r.method === "POST") throw new TypeError("Failed to fetch");
        return undefined;
      },
    ]);
    const outbox = new Outbox(client, { storage: memoryStorage() });
    render(<TidingsProvider client={client} locale="en" outbox={outbox}><FeatureRequestList /></TidingsProvider>);
    fireEvent.click(await screen.findByRole("button", { name: "Suggest a feature" }));
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Dark mode" } });
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    await screen.findByText("Saved on this device. It will be sent when the connection is back.");
    expect(screen.queryByLabelText("Title")).toBeNull();
    expect(outbox.pending.map((e) => e.kind)).toEqual(["featureRequest"]);
    expect(api.calls.filter((c) => c.url.pathname === "/api/v1/feature-requests" && c.method === "POST")).toHaveLength(1);
  });
});

describe("boards, tags and custom fields", () => {
  const board = (slug: string, name: string, position: number, extra: Record<string, unknown> = {}) => ({
    id: `brd_${slug}`,
    name,
    slug,
    description: "",
    position,
    visibility: "public",
    isDefault: position === 0,
    ...extra,
  });
  const boards = (...list: ReturnType<typeof board>[]) => on("GET", "/api/v1/public/apps/app_test/boards", { status: 200, body: { boards: list } });
  const ui = { name: "UI", slug: "ui", color: "#336699" };
  const sync = { name: "Sync", slug: "sync", color: null };
  /** The listing, filtered by board (request 2 is on `bugs`) and tags as the server would. */
  const listing: FakeRoute = (r) => {
    if (r.method !== "GET" || r.url.pathname !== "/api/v1/feature-requests") return undefined;
    const filed = (id: string, boardId: string, tags: (typeof ui | typeof sync)[]) => ({ ...item(id), boardId, tags });
    const all = [filed("1", "brd_feature-requests", [ui, sync]), filed("2", "brd_bugs", [ui]), filed("3", "brd_feature-requests", [])];
    const onBoard = r.url.searchParams.get("board");
    const tags = r.url.searchParams.getAll("tag");
    const requests = all.filter((i) => (onBoard === null || i.boardId === `brd_${onBoard}`) && tags.every((t) => i.tags.some((x) => x.slug === t)));
    return { status: 200, body: { requests, total: requests.length } };
  };
  const listings = (api: { calls: { method: string; url: URL }[] }) =>
    api.calls.filter((c) => c.method === "GET" && c.url.pathname === "/api/v1/feature-requests").map((c) => `${c.url.searchParams.get("board") ?? "*"}|${c.url.searchParams.getAll("tag").join(",")}`);

  it("hides the board switcher when the user sees one board, and shows each request's tags", async () => {
    const { client, api } = setup([config(), boards(board("feature-requests", "Feature requests", 0)), listing]);
    render(<TidingsProvider client={client} locale="en"><FeatureRequestList /></TidingsProvider>);
    const row = (await screen.findByRole("button", { name: "Request 1" })).closest("li")!;
    expect(within(row).getByText("UI")).toBeTruthy();
    expect(within(row).getByText("Sync")).toBeTruthy();
    await waitFor(() => expect(api.calls.some((c) => c.url.pathname.endsWith("/boards"))).toBe(true));
    expect(screen.queryByLabelText("Board")).toBeNull();
  });

  it("switches boards, filters on the tags pressed, and proposes to the board shown", async () => {
    const { client, api } = setup([
      config(),
      boards(board("feature-requests", "Feature requests", 0), board("bugs", "Bugs", 1, { description: "Things that break" })),
      listing,
      on("POST", "/api/v1/feature-requests", { status: 201, body: { featureRequestId: "new", pending: false } }),
    ]);
    const picked: (string | undefined)[] = [];
    render(<TidingsProvider client={client} locale="en"><FeatureRequestList onBoardChange={(slug) => picked.push(slug)} /></TidingsProvider>);
    const switcher = (await screen.findByLabelText("Board")) as HTMLSelectElement;
    expect([...switcher.options].map((o) => o.textContent)).toEqual(["All boards", "Feature requests", "Bugs"]);
    await screen.findByRole("button", { name: "Request 3" });
    fireEvent.change(switcher, { target: { value: "bugs" } });
    await waitFor(() => expect(screen.queryByRole("button", { name: "Request 1" })).toBeNull());
    expect(screen.getByText("Things that break")).toBeTruthy();
    expect(picked).toEqual(["bugs"]);

    fireEvent.change(switcher, { target: { value: "" } });
    await screen.findByRole("button", { name: "Request 1" });
    const filter = screen.getByRole("group", { name: "Filter by tag" });
    expect(within(filter).getAllByRole("button").map((b) => b.textContent)).toEqual(["Sync", "UI"]);
    fireEvent.click(within(filter).getByRole("button", { name: "Sync" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Request 2" })).toBeNull());
    expect(within(filter).getByRole("button", { name: "Sync" }).getAttribute("aria-pressed")).toBe("true");
    // Tags seen once stay offered while the filter narrows the list.
    expect(within(filter).getAllByRole("button")).toHaveLength(2);
    expect(listings(api)).toEqual(["*|", "bugs|", "*|", "*|sync"]);

    fireEvent.change(switcher, { target: { value: "bugs" } });
    fireEvent.click(screen.getByRole("button", { name: "Suggest a feature" }));
    const dialog = await screen.findByRole("dialog");
    expect(((await within(dialog).findByLabelText("Board")) as HTMLSelectElement).value).toBe("bugs");
    fireEvent.change(within(dialog).getByLabelText("Title"), { target: { value: "Crash on save" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }));
    await screen.findByText("Thanks! Your request was submitted.");
    expect(api.calls.find((c) => c.method === "POST")!.body).toMatchObject({ title: "Crash on save", board: "bugs" });
  });

  it("follows the board and tags a page gives, drawing no filters of its own", async () => {
    const { client, api } = setup([config(), boards(board("feature-requests", "Feature requests", 0), board("bugs", "Bugs", 1)), listing]);
    const view = (props: { board: string | null; tags: string[] }) => (
      <TidingsProvider client={client} locale="en">
        <FeatureRequestList {...props} showBoardAndTagFilters={false} />
      </TidingsProvider>
    );
    const { rerender } = render(view({ board: "bugs", tags: [] }));
    await screen.findByRole("button", { name: "Request 2" });
    expect(screen.queryByRole("button", { name: "Request 1" })).toBeNull();
    rerender(view({ board: null, tags: ["sync"] }));
    await screen.findByRole("button", { name: "Request 1" });
    await waitFor(() => expect(screen.queryByRole("button", { name: "Request 2" })).toBeNull());
    expect(screen.queryByLabelText("Board")).toBeNull();
    expect(screen.queryByRole("group", { name: "Filter by tag" })).toBeNull();
    expect(listings(api)).toEqual(["bugs|", "*|sync"]);
  });

  it("asks the board's custom fields in the compose sheet, points at what needs attention, and sends the values", async () => {
    const severity = {
      key: "severity",
      label: "Severity",
      description: "How bad is it?",
      type: "single_select",
      required: true,
      appliesTo: ["feature_request"],
      options: [
        { value: "low", label: "Low" },
        { value: "high", label: "High" },
      ],
      limits: {},
      position: 0,
    };
    const seats = { key: "seats", label: "Seats", description: "", type: "number", required: false, appliesTo: ["feature_request"], options: [], limits: { min: 1, max: 50, integer: true }, position: 1 };
    const accept = { key: "accept", label: "I may be contacted", description: "", type: "checkbox", required: true, appliesTo: ["feature_request"], options: [], limits: {}, position: 2 };
    const feedbackOnly = { ...seats, key: "mood", label: "Mood", appliesTo: ["feedback"], position: 3 };
    let refuse = true;
    const { client, api } = setup([
      config(),
      on("GET", "/api/v1/feature-requests", { status: 200, body: { requests: [], total: 0 } }),
      on("GET", "/api/v1/public/apps/app_test/fields", { status: 200, body: { fields: [severity, seats, accept, feedbackOnly] } }),
      (r) => {
        if (r.method !== "POST") return undefined;
        if (!refuse) return { status: 201, body: { featureRequestId: "new", pending: true } };
        refuse = false;
        return { status: 400, body: { error: "fields.severity: Not an option: high", code: "validation_failed", details: { formErrors: [], fieldErrors: { "fields.severity": ["Not an option: high"] } } } };
      },
    ]);
    render(<TidingsProvider client={client} locale="en"><FeatureRequestList /></TidingsProvider>);
    fireEvent.click(await screen.findByRole("button", { name: "Suggest a feature" }));
    const dialog = await screen.findByRole("dialog");
    const pick = (await within(dialog).findByLabelText("Severity *")) as HTMLSelectElement;
    expect(within(dialog).queryByLabelText(/Mood/)).toBeNull();
    expect(pick.getAttribute("aria-required")).toBe("true");
    expect(within(dialog).getByText("From 1 to 50")).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText("Title"), { target: { value: "Crash on save" } });
    fireEvent.change(within(dialog).getByLabelText("Seats"), { target: { value: "2.5" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }));

    expect(await within(dialog).findByText("Please check the fields marked above.")).toBeTruthy();
    expect(pick.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(pick.getAttribute("aria-describedby")!.split(" ").at(-1)!)!.textContent).toBe("Please fill in this field.");
    expect(within(dialog).getByText("Please enter a whole number.")).toBeTruthy();
    expect(within(dialog).getByText("Please tick this box.")).toBeTruthy();
    expect(api.calls.filter((c) => c.method === "POST")).toEqual([]);

    fireEvent.change(pick, { target: { value: "high" } });
    fireEvent.change(within(dialog).getByLabelText("Seats"), { target: { value: "12" } });
    fireEvent.click(within(dialog).getByLabelText("I may be contacted *"));
    expect(within(dialog).queryByText("Please fill in this field.")).toBeNull();
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }));
    // The server refused a value: its field says so, the draft stays.
    expect(await within(dialog).findByText("This value was not accepted. Please check it.")).toBeTruthy();
    expect(pick.value).toBe("high");
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }));
    await screen.findByText("Thanks! Your request is waiting for review.");
    const posts = api.calls.filter((c) => c.method === "POST").map((c) => (c.body as { fields: unknown }).fields);
    expect(posts).toEqual([{ severity: "high", seats: 12, accept: true }, { severity: "high", seats: 12, accept: true }]);
  });

  it("asks the app's feedback fields in the feedback composer, in the user's language, and sends them", async () => {
    const platforms = { key: "devices", label: "Appareils", description: "", type: "multi_select", required: true, appliesTo: ["feedback"], options: ["iPhone", "iPad", "Mac"].map((v) => ({ value: v.toLowerCase(), label: v })), limits: { maxSelected: 2 }, position: 0 };
    const note = { key: "note", label: "Remarque", description: "", type: "text", required: false, appliesTo: ["feedback"], options: [], limits: { maxLength: 5 }, position: 1 };
    const { client, api } = setup([
      config(),
      on("GET", "/api/v1/public/apps/app_test/fields", { status: 200, body: { fields: [platforms, note] } }),
      on("POST", "/api/v1/feedback", { status: 201, body: { submissionId: "sub_1" } }),
    ]);
    // What the page shows when the composer reports the submission: the thanks, over an empty form.
    let atThanks: { thanks: boolean; iPhone: boolean } | undefined;
    const onSubmitted = () => {
      atThanks = { thanks: screen.queryByText("Merci ! Votre avis a été envoyé.") !== null, iPhone: (screen.getByLabelText("iPhone") as HTMLInputElement).checked };
    };
    render(<TidingsProvider client={client} locale="fr" locales={[fr]}><FeedbackComposer onSubmitted={onSubmitted} /></TidingsProvider>);
    const devices = await screen.findByRole("group", { name: "Appareils (obligatoire)" });
    expect(within(devices).getByText("Jusqu'à 2 choix")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Titre"), { target: { value: "Crash" } });
    for (const name of ["iPhone", "iPad", "Mac"]) fireEvent.click(within(devices).getByLabelText(name));
    fireEvent.change(screen.getByLabelText("Remarque"), { target: { value: "Trop long" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Veuillez vérifier les champs signalés ci-dessus.");
    expect(within(devices).getByText("Veuillez choisir au plus 2 options.")).toBeTruthy();
    expect(screen.getByText("Veuillez utiliser au plus 5 caractères.")).toBeTruthy();
    fireEvent.click(within(devices).getByLabelText("Mac"));
    fireEvent.change(screen.getByLabelText("Remarque"), { target: { value: " Vite " } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer" }));
    await screen.findByText("Merci ! Votre avis a été envoyé.");
    expect((api.calls.find((c) => c.method === "POST")!.body as { fields: unknown }).fields).toEqual({ devices: ["iphone", "ipad"], note: "Vite" });
    expect((within(devices).getByLabelText("iPhone") as HTMLInputElement).checked).toBe(false);
    expect(atThanks).toEqual({ thanks: true, iPhone: false });
  });
});

describe("changelog", () => {
  const entries = [
    { id: "cl_2", title: "Faster sync", body: "**Fast** <script>window.__pwned = true</script>", html: "<p><strong>Fast</strong> </p>", versionLabel: "1.2", publishedAt: "2026-02-01T00:00:00Z" },
    { id: "cl_1", title: "Hello", body: "<b>raw</b>", versionLabel: null, publishedAt: "2026-01-01T00:00:00Z" },
  ];
  const changelog = on("GET", "/api/v1/public/apps/app_test/changelog", { status: 200, body: { entries, hasMore: false, nextCursor: null } });

  it("renders the server's sanitised html, and Markdown without html only as text", async () => {
    const { client } = setup([config(), changelog]);
    const { container } = render(<TidingsProvider client={client}><WhatsNew /></TidingsProvider>);
    await screen.findByText("Faster sync");
    expect(container.querySelector("strong")?.textContent).toBe("Fast");
    expect(container.querySelector("script")).toBeNull();
    expect(screen.getByText("<b>raw</b>")).toBeTruthy();
    expect((globalThis as { __pwned?: boolean }).__pwned).toBeUndefined();
  });

  it("shows the overlay once with onlyIfUnseen, with the config's copy, and not after it was closed", async () => {
    const storage = memoryStorage();
    const routes = [config({ changelogOverlay: { title: "Fresh in 1.2", primaryButton: "Got it" } }), changelog];
    const first = setup(routes, storage);
    const view = render(<TidingsProvider client={first.client}><ChangelogOverlay onlyIfUnseen /></TidingsProvider>);
    const dialog = await screen.findByRole("dialog", { name: "Fresh in 1.2" });
    // Focus moves into the dialog once it is shown.
    await waitFor(() => expect(document.activeElement !== null && dialog.contains(document.activeElement)).toBe(true));
    fireEvent.click(within(dialog).getByRole("button", { name: "Got it" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(async () => expect(await first.client.seenChangelogs.hasSeen("1.2")).toBe(true));
    view.unmount();

    const second = setup(routes, storage);
    render(<TidingsProvider client={second.client}><ChangelogOverlay onlyIfUnseen /></TidingsProvider>);
    await waitFor(() => expect(second.api.calls.some((c) => c.url.pathname.endsWith("/changelog"))).toBe(true));
    await new Promise((r) => setTimeout(r, 30));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("prepares no overlay when the changelog flag is off", async () => {
    const { client, api } = setup([config({ features: { changelog: false } }), changelog]);
    render(<TidingsProvider client={client}><ChangelogOverlay /></TidingsProvider>);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(api.calls.some((c) => c.url.pathname.endsWith("/changelog"))).toBe(false);
  });
});
