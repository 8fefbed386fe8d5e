import { FeedbackClient, memoryStorage } from "@tidings/client";
import { Outbox } from "@tidings/client/outbox";
import { fr } from "@tidings/react-core/locales/fr";
import { ja } from "@tidings/react-core/locales/ja";
import { demoConfig, fakeFetch, item, type FakeRoute } from "@tidings/react-core/testing";
import { describe, expect, test } from "@jest/globals";
import { fireEvent, render, screen, waitFor } from "@testing-library/react-native";
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
    await waitFor(() => expect(api.calls).toHaveLength(1));
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
