import { FeedbackClient, memoryStorage } from "@tidings/client";
import { Outbox } from "@tidings/client/outbox";
import { fr } from "@tidings/react-core/locales/fr";
import { ja } from "@tidings/react-core/locales/ja";
import { demoConfig, fakeFetch, item, type FakeRoute } from "@tidings/react-core/testing";
import { describe, expect, test } from "@jest/globals";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { FeatureRequestComposeSheet } from "./FeatureRequestComposeSheet.js";
import { FeatureRequestsScreen } from "./FeatureRequestsScreen.js";

const config = (sdk: Record<string, unknown> = {}): FakeRoute => ({ url }) =>
  url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig(sdk) } : undefined;

function setup(routes: FakeRoute[]) {
  const api = fakeFetch(routes);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
  const posts = () => api.calls.filter((c) => c.method === "POST" && c.url.pathname === "/api/v1/feature-requests");
  return { api, client, posts };
}

describe("FeatureRequestComposeSheet", () => {
  test("a proposal held for review closes the sheet, thanks the user and appears in the list with its pending badge", async () => {
    let proposed = false;
    const { client, posts } = setup([
      config(),
      ({ method, url }) =>
        method === "GET" && url.pathname === "/api/v1/feature-requests"
          ? { status: 200, body: { requests: proposed ? [item("1"), item("new", { title: "Offline mode", approved: false, isOwnRequest: true })] : [item("1")], total: proposed ? 2 : 1 } }
          : undefined,
      ({ method, url }) => {
        if (method !== "POST" || url.pathname !== "/api/v1/feature-requests") return undefined;
        proposed = true;
        return { status: 201, body: { featureRequestId: "new", pending: true } };
      },
    ]);
    render(
      <TidingsProvider client={client} locale="en">
        <FeatureRequestsScreen />
      </TidingsProvider>,
    );
    await screen.findByText("Request 1");
    fireEvent.press(screen.getByRole("button", { name: "Suggest a feature" }));
    fireEvent.changeText(screen.getByLabelText("Title"), "Offline mode");
    fireEvent.changeText(screen.getByLabelText("Details"), "Work on the train");
    fireEvent.press(screen.getByRole("button", { name: "Submit" }));

    await screen.findByText("Thanks! Your request is waiting for review.");
    expect(screen.queryByLabelText("Title")).toBeNull();
    await screen.findByText("Offline mode");
    expect(screen.getByText("Pending review")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Your request" })).toBeTruthy();
    expect(posts().map((c) => c.body)).toEqual([expect.objectContaining({ title: "Offline mode", description: "Work on the train" })]);
  });

  test("keeps the draft and shows the localized error when the proposal fails, and asks for a title before sending", async () => {
    const { client, posts } = setup([
      config(),
      ({ method, url }) =>
        method === "POST" && url.pathname === "/api/v1/feature-requests" ? { status: 402, body: { error: "Monthly submission quota reached", code: "tier_limit_submissions" } } : undefined,
    ]);
    let closed = 0;
    render(
      <TidingsProvider client={client} locale="fr" locales={[fr]}>
        <FeatureRequestComposeSheet onClose={() => (closed += 1)} />
      </TidingsProvider>,
    );
    const submit = await screen.findByRole("button", { name: "Envoyer" });
    fireEvent.press(submit);
    await screen.findByText("Veuillez saisir un titre.");
    expect(posts()).toHaveLength(0);

    fireEvent.changeText(screen.getByLabelText("Titre"), "Mode hors ligne");
    fireEvent.changeText(screen.getByLabelText("Détails"), "Dans le train");
    fireEvent.changeText(screen.getByLabelText("E-mail (facultatif)"), "ada@example.com");
    fireEvent.press(submit);
    await screen.findByText(/limite mensuelle/);
    expect(screen.getByLabelText("Titre").props.value).toBe("Mode hors ligne");
    expect(screen.getByLabelText("Détails").props.value).toBe("Dans le train");
    expect(screen.getByLabelText("E-mail (facultatif)").props.value).toBe("ada@example.com");
    expect(closed).toBe(0);
    expect(posts()).toHaveLength(1);
  });

  test("shows the unavailable state and sends nothing while the featureRequests flag is off", async () => {
    const { client, api } = setup([config({ features: { featureRequests: false } })]);
    render(
      <TidingsProvider client={client} locale="en">
        <FeatureRequestComposeSheet onClose={() => undefined} />
      </TidingsProvider>,
    );
    await screen.findByText("This feature is not available right now.");
    expect(screen.queryByRole("button", { name: "Submit" })).toBeNull();
    await waitFor(() => expect(api.calls.map((c) => c.method)).toEqual(["GET"]));
  });

  test("with an outbox, a proposal made without a connection is saved on the device and sent once under the same key later", async () => {
    let online = false;
    const { client, api, posts } = setup([
      config(),
      ({ method, url }) => {
        if (method !== "POST" || url.pathname !== "/api/v1/feature-requests") return undefined;
        if (!online) throw new TypeError("Network request failed");
        return { status: 201, body: { featureRequestId: "fr_1", pending: true } };
      },
    ]);
    const outbox = new Outbox(client, { storage: memoryStorage() });
    let closed = 0;
    render(
      <TidingsProvider client={client} locale="ja" locales={[ja]} outbox={outbox}>
        <FeatureRequestComposeSheet onClose={() => (closed += 1)} />
      </TidingsProvider>,
    );
    // The config, then the boards and the proposal form's fields.
    await waitFor(() => expect(api.calls).toHaveLength(3));
    fireEvent.changeText(screen.getByLabelText("タイトル"), "オフラインモード");
    fireEvent.press(screen.getByRole("button", { name: "送信" }));
    expect(await screen.findByText("この端末に保存しました。接続が回復すると送信されます。")).toBeTruthy();
    expect(screen.queryByLabelText("タイトル")).toBeNull();
    online = true;
    await outbox.flush();
    expect(posts()).toHaveLength(2);
    expect(posts()[1]!.headers["idempotency-key"]).toBe(posts()[0]!.headers["idempotency-key"]);
    expect(outbox.pending).toEqual([]);
    fireEvent.press(screen.getByRole("button", { name: "閉じる" }));
    expect(closed).toBe(1);
  });
});

describe("FeatureRequestComposeSheet similar requests", () => {
  test("lists the requests like the typed title before anything is sent, and opens one instead", async () => {
    const { client, api, posts } = setup([
      config(),
      ({ method, url }) => (method === "GET" && url.pathname === "/api/v1/feature-requests" ? { status: 200, body: { requests: [item("1")], total: 1 } } : undefined),
      ({ method, url }) =>
        method === "GET" && url.pathname === "/api/v1/feature-requests/similar"
          ? { status: 200, body: { requests: url.searchParams.get("title") === "dark mo" ? [item("dm", { title: "Dark mode", voteCount: 42 })] : [] } }
          : undefined,
    ]);
    render(
      <TidingsProvider client={client} locale="en">
        <FeatureRequestsScreen />
      </TidingsProvider>,
    );
    await screen.findByText("Request 1");
    fireEvent.press(screen.getByRole("button", { name: "Suggest a feature" }));
    fireEvent.changeText(screen.getByLabelText("Title"), "dark mo");
    await screen.findByText("Already suggested? Vote for it instead:");
    expect(screen.getByText("Dark mode · 42 votes")).toBeTruthy();
    expect(api.calls.filter((c) => c.url.pathname === "/api/v1/feature-requests/similar").map((c) => c.url.searchParams.get("title"))).toEqual(["dark mo"]);
    expect(posts()).toEqual([]);

    fireEvent.press(screen.getByRole("button", { name: "Dark mode" }));
    await waitFor(() => expect(screen.queryByLabelText("Title")).toBeNull());
    expect(posts()).toEqual([]);
  });
});

describe("FeatureRequestComposeSheet custom fields", () => {
  test("asks the board's custom fields, points at what needs attention before sending, and shows the server's refusal on its field", async () => {
    const boards = [
      { id: "brd_1", name: "Feature requests", slug: "feature-requests", description: "", position: 0, visibility: "public", isDefault: true },
      { id: "brd_2", name: "Bugs", slug: "bugs", description: "", position: 1, visibility: "public", isDefault: false },
    ];
    const severity = { key: "severity", label: "Severity", description: "", type: "single_select", required: true, appliesTo: ["feature_request"], options: [{ value: "low", label: "Low" }, { value: "high", label: "High" }], limits: {}, position: 0 };
    const build = { key: "build", label: "Build", description: "Settings › About", type: "number", required: false, appliesTo: ["feature_request"], options: [], limits: { min: 1, integer: true }, position: 1 };
    let refuse = true;
    const { client, posts, api } = setup([
      config(),
      ({ method, url }) => (method === "GET" && url.pathname === "/api/v1/public/apps/app_test/boards" ? { status: 200, body: { boards } } : undefined),
      // The bugs board asks for the build; the default board only the severity.
      ({ method, url }) =>
        method === "GET" && url.pathname === "/api/v1/public/apps/app_test/fields" ? { status: 200, body: { fields: url.searchParams.get("board") === "bugs" ? [severity, build] : [severity] } } : undefined,
      ({ method, url }) => {
        if (method !== "POST" || url.pathname !== "/api/v1/feature-requests") return undefined;
        if (!refuse) return { status: 201, body: { featureRequestId: "fr_1", pending: false } };
        refuse = false;
        return { status: 400, body: { error: "fields.build: Must be at most 9000", code: "validation_failed", details: { formErrors: [], fieldErrors: { "fields.build": ["Must be at most 9000"] } } } };
      },
    ]);
    let submitted = 0;
    render(
      <TidingsProvider client={client} locale="en">
        <FeatureRequestComposeSheet onClose={() => undefined} onSubmitted={() => (submitted += 1)} />
      </TidingsProvider>,
    );
    const boardPicker = await screen.findByLabelText("Board");
    expect(within(boardPicker).getByRole("radio", { name: "Feature requests" }).props.accessibilityState).toMatchObject({ checked: true });
    expect(await screen.findByLabelText("Severity (required)")).toBeTruthy();
    expect(screen.queryByLabelText("Build")).toBeNull();
    fireEvent.press(within(boardPicker).getByRole("radio", { name: "Bugs" }));
    const buildInput = await screen.findByLabelText("Build");
    expect(screen.getByText("Settings › About · 1 or more")).toBeTruthy();

    fireEvent.changeText(screen.getByLabelText("Title"), "Crash on save");
    fireEvent.changeText(buildInput, "0");
    fireEvent.press(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("Please check the fields marked above.")).toBeTruthy();
    expect(screen.getByText("Please fill in this field.")).toBeTruthy();
    expect(screen.getByText("Please enter 1 or more.")).toBeTruthy();
    expect(posts()).toEqual([]);

    fireEvent.press(screen.getByRole("radio", { name: "High" }));
    fireEvent.changeText(buildInput, "9001");
    expect(screen.queryByText("Please fill in this field.")).toBeNull();
    fireEvent.press(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("This value was not accepted. Please check it.")).toBeTruthy();
    expect(screen.getByLabelText("Build").props.value).toBe("9001");
    fireEvent.changeText(screen.getByLabelText("Build"), "42");
    fireEvent.press(screen.getByRole("button", { name: "Submit" }));
    await waitFor(() => expect(submitted).toBe(1));
    expect(posts().map((c) => c.body)).toEqual([
      expect.objectContaining({ board: "bugs", fields: { severity: "high", build: 9001 } }),
      expect.objectContaining({ board: "bugs", fields: { severity: "high", build: 42 } }),
    ]);
    expect(api.calls.filter((c) => c.url.pathname.endsWith("/fields")).map((c) => c.url.searchParams.get("board"))).toEqual([null, "bugs"]);
  });
});

