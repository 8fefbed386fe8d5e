import { FeedbackClient, memoryStorage, type FetchLike, type Timers } from "@tidings/client";
import { Outbox } from "@tidings/client/outbox";
import { allLocales } from "@tidings/react-core/locales";
import { demoConfig, fakeFetch, type FakeRoute } from "@tidings/react-core/testing";
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react-native";
import { Platform } from "react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { FeedbackComposer, type FeedbackComposerProps } from "./FeedbackComposer.js";

const config = (sdk: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): FakeRoute => ({ url }) =>
  url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: { ...demoConfig(sdk), ...extra } } : undefined;
const on = (method: string, path: string, answer: ReturnType<FakeRoute>): FakeRoute => (r) => (r.method === method && r.url.pathname === path ? answer : undefined);
const accepted = on("POST", "/api/v1/feedback", { status: 201, body: { submissionId: "sub_1" } });
const uploaded = on("POST", "/api/v1/uploads/images", { status: 201, body: { kind: "image", key: "up_1", url: "https://files.test/up_1.png" } });

/** Timers the test fires by hand: request timeouts without waiting. */
function manualTimers() {
  const live = new Map<number, () => void>();
  let next = 0;
  const timers: Timers = {
    now: () => Date.parse("2026-03-01T00:00:00Z"),
    setTimeout: (callback) => {
      live.set(++next, callback);
      return next;
    },
    clearTimeout: (handle) => live.delete(handle as number),
  };
  const fireAll = () => {
    const due = [...live.values()];
    live.clear();
    for (const callback of due) callback();
  };
  return { timers, fireAll };
}

interface Setup {
  routes: FakeRoute[];
  locale?: string;
  props?: FeedbackComposerProps;
  /** Wraps the fake API's fetch (to hang, fail or watch requests). */
  wrap?: (fetch: FetchLike) => FetchLike;
  timers?: Timers;
}

function setup(options: Setup) {
  const api = fakeFetch(options.routes);
  const client = new FeedbackClient({
    baseUrl: "http://api.test",
    appKey: "app_test",
    fetch: options.wrap?.(api.fetch) ?? api.fetch,
    storage: memoryStorage(),
    warn: () => undefined,
    ...(options.timers === undefined ? {} : { timers: options.timers }),
  });
  const view = render(
    <TidingsProvider client={client} locale={options.locale ?? "en"} locales={allLocales}>
      <FeedbackComposer {...options.props} />
    </TidingsProvider>,
  );
  const configLoaded = () => waitFor(() => expect(api.calls.some((c) => c.url.pathname === "/api/v1/public/config/app_test")).toBe(true));
  const posts = () => api.calls.filter((c) => c.method === "POST" && c.url.pathname === "/api/v1/feedback");
  return { api, client, view, configLoaded, posts };
}

/** The draft as a user sees it. */
function draft(titleLabel = "Title", detailsLabel = "Details") {
  return { title: screen.getByLabelText(titleLabel).props.value as string, details: screen.getByLabelText(detailsLabel).props.value as string };
}

function type(title: string, details: string, labels = { title: "Title", details: "Details" }) {
  fireEvent.changeText(screen.getByLabelText(labels.title), title);
  fireEvent.changeText(screen.getByLabelText(labels.details), details);
}

const descriptorPick = { kind: "image", key: "up_9", url: "https://files.test/up_9.png", filename: "shot.png", mimeType: "image/png" };

/** The multipart file parts of the uploads the fake API received. */
const fileParts = (calls: { url: URL; body: unknown }[]) =>
  calls.filter((c) => c.url.pathname.startsWith("/api/v1/uploads/")).map((c) => (c.body as { getAll: (name: string) => unknown[] }).getAll("file"));

describe("FeedbackComposer", () => {
  // React Native's own FormData, as on a device: it keeps {uri, name, type} file parts (Node's turns them into text).
  const scope = globalThis as unknown as { FormData: unknown };
  const NodeFormData = scope.FormData;
  beforeAll(() => {
    scope.FormData = jest.requireActual<{ default: unknown }>("react-native/Libraries/Network/FormData").default;
  });
  afterAll(() => {
    scope.FormData = NodeFormData;
  });

  test("rule 4 without a picker: the person typing sees no platform, and the running OS is sent when allowed, else the first allowed", async () => {
    expect(Platform.OS).toBe("ios");
    const allowAndroidFirst = setup({ routes: [config({}, { allowedPlatforms: ["android", "ios"] }), accepted] });
    await allowAndroidFirst.configLoaded();
    type("Crash", "On start");
    expect(screen.queryByText("Platform")).toBeNull();
    expect(screen.queryByRole("radio")).toBeNull();
    expect(screen.queryByText("iOS")).toBeNull();
    fireEvent.press(screen.getByRole("button", { name: "Send" }));
    await screen.findByText("Thank you! Your feedback was sent.");
    expect(allowAndroidFirst.posts().map((c) => (c.body as { platform: string }).platform)).toEqual(["ios"]);
    allowAndroidFirst.view.unmount();

    const androidOnly = setup({ routes: [config({}, { allowedPlatforms: ["android"] }), accepted] });
    await androidOnly.configLoaded();
    type("Crash", "On start");
    expect(screen.queryByText("Android")).toBeNull();
    fireEvent.press(screen.getByRole("button", { name: "Send" }));
    await screen.findByText("Thank you! Your feedback was sent.");
    expect(androidOnly.posts().map((c) => (c.body as { platform: string }).platform)).toEqual(["android"]);
  });

  test("with showPlatformPicker: a chooser of the allowed platforms with the rule-4 one checked, and the choice is sent", async () => {
    const { configLoaded, posts } = setup({
      routes: [config({}, { allowedPlatforms: ["ios", "android", "macos"] }), accepted],
      props: { defaultPlatform: "macos", showPlatformPicker: true },
    });
    await configLoaded();
    expect(screen.getByText("Platform")).toBeTruthy();
    expect(await screen.findByRole("radio", { name: "macOS", checked: true })).toBeTruthy();
    expect(screen.getAllByRole("radio").map((r) => r.props.accessibilityLabel as string)).toEqual(["iOS", "Android", "macOS"]);
    fireEvent.press(screen.getByRole("radio", { name: "Android" }));
    expect(screen.getByRole("radio", { name: "Android", checked: true })).toBeTruthy();
    type("Crash", "");
    fireEvent.press(screen.getByRole("button", { name: "Send" }));
    await screen.findByText("Thank you! Your feedback was sent.");
    expect((posts()[0]!.body as { platform: string }).platform).toBe("android");
  });

  test("with showPlatformPicker and one allowed platform: shows it, nothing to choose", async () => {
    const { configLoaded } = setup({ routes: [config({}, { allowedPlatforms: ["android"] })], props: { showPlatformPicker: true } });
    await configLoaded();
    expect(await screen.findByText("Android")).toBeTruthy();
    expect(screen.queryByRole("radio")).toBeNull();
  });

  test("the attachments step says why, and Screenshot of this screen attaches the host's capture with a thumbnail, progress and a remove button", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const shot = "file:///data/user/0/app/cache/ReactNative-snapshot-image123.png";
    const captureScreenshot = jest.fn(async () => ({ file: { uri: shot, name: "screenshot.png", type: "image/png" }, filename: "screenshot.png", mimeType: "image/png" }));
    const { api, configLoaded, posts } = setup({
      routes: [config(), uploaded, accepted],
      props: { captureScreenshot },
      wrap: (fetch) => async (input, init) => {
        if (String(input).includes("/uploads/")) await gate;
        return fetch(input, init);
      },
    });
    await configLoaded();
    expect(screen.getByRole("header", { name: "Attachments" })).toBeTruthy();
    expect(screen.getByText("A screenshot or a file helps us see what you see.")).toBeTruthy();
    // Only the actions the host gave: no picker, so no Add files.
    expect(screen.queryByRole("button", { name: "Add files" })).toBeNull();
    type("Button does nothing", "");
    fireEvent.press(screen.getByRole("button", { name: "Screenshot of this screen" }));
    expect(await screen.findByLabelText("Uploading screenshot.png…")).toBeTruthy();
    expect(screen.getByText("screenshot.png")).toBeTruthy();
    expect(screen.getByTestId("tidings-attachment-thumbnail").props.source).toEqual({ uri: shot });
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
    await act(async () => {
      release();
      await gate;
    });
    expect(await screen.findByLabelText("screenshot.png attached")).toBeTruthy();
    expect(fileParts(api.calls)).toEqual([[{ uri: shot, name: "screenshot.png", type: "image/png" }]]);

    // A second capture, removed again: only the first is sent.
    await act(async () => {
      fireEvent.press(screen.getByRole("button", { name: "Screenshot of this screen" }));
      await captureScreenshot.mock.results[1]?.value;
    });
    expect(screen.getAllByText("screenshot.png")).toHaveLength(2);
    fireEvent.press(screen.getAllByRole("button", { name: "Remove screenshot.png" })[1]!);
    expect(screen.getAllByText("screenshot.png")).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeEnabled());
    fireEvent.press(screen.getByRole("button", { name: "Send" }));
    await screen.findByText("Thank you! Your feedback was sent.");
    expect((posts()[0]!.body as { attachments: { key: string }[] }).attachments.map((a) => a.key)).toEqual(["up_1"]);
    expect(captureScreenshot).toHaveBeenCalledTimes(2);
  });

  test("a capture that finds no screenshot adds nothing, and one that fails shows a localized error beside the Add files action", async () => {
    let outcome: "none" | "throw" = "none";
    const captureScreenshot = jest.fn(async () => {
      if (outcome === "throw") throw new Error("view-shot: no view");
      return null;
    });
    const { configLoaded } = setup({ routes: [config()], locale: "de", props: { captureScreenshot, pickAttachment: () => null } });
    await configLoaded();
    expect(screen.getByRole("button", { name: "Dateien hinzufügen" })).toBeTruthy();
    fireEvent.press(screen.getByRole("button", { name: "Screenshot dieses Bildschirms" }));
    await waitFor(() => expect(captureScreenshot).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole("button", { name: /entfernen$/ })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    outcome = "throw";
    fireEvent.press(screen.getByRole("button", { name: "Screenshot dieses Bildschirms" }));
    expect(await screen.findByText("Etwas ist schiefgelaufen. Bitte versuche es erneut.")).toBeTruthy();
  });

  test("without a picker or a capture there is no attachments step", async () => {
    const { configLoaded } = setup({ routes: [config()] });
    await configLoaded();
    expect(await screen.findByLabelText("Title")).toBeTruthy();
    expect(screen.queryByText("Attachments")).toBeNull();
    expect(screen.queryByRole("button", { name: "Add files" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Screenshot of this screen" })).toBeNull();
  });

  test("a pick of an unknown shape shows a localized error row and leaves the draft and other attachments intact", async () => {
    let pick: unknown = descriptorPick;
    const { configLoaded, posts } = setup({ routes: [config(), accepted], locale: "fr", props: { pickAttachment: () => pick } });
    await configLoaded();
    type("Plantage", "Au démarrage", { title: "Titre", details: "Détails" });
    fireEvent.press(screen.getByRole("button", { name: "Ajouter des fichiers" }));
    await screen.findByText("shot.png");
    pick = { path: "/tmp/x.png" };
    fireEvent.press(screen.getByRole("button", { name: "Ajouter des fichiers" }));
    expect(await screen.findByText("Ce fichier ne peut pas être joint.")).toBeTruthy();
    expect(draft("Titre", "Détails")).toEqual({ title: "Plantage", details: "Au démarrage" });
    expect(screen.getByText("shot.png")).toBeTruthy();
    // The bad row can be removed; the good one is sent.
    fireEvent.press(screen.getByRole("button", { name: "Retirer ?" }));
    expect(screen.queryByText("Ce fichier ne peut pas être joint.")).toBeNull();
    fireEvent.press(screen.getByRole("button", { name: "Envoyer" }));
    await screen.findByText("Merci ! Votre avis a été envoyé.");
    expect((posts()[0]!.body as { attachments: { key: string }[] }).attachments.map((a) => a.key)).toEqual(["up_9"]);
  });

  test("a cancelled pick adds nothing, and a picker that throws shows a localized error", async () => {
    let outcome: "cancel" | "throw" = "cancel";
    const pickAttachment = jest.fn(async () => {
      if (outcome === "throw") throw new Error("Photo library permission denied");
      return null;
    });
    const { configLoaded } = setup({ routes: [config()], props: { pickAttachment } });
    await configLoaded();
    type("Crash", "On start");
    fireEvent.press(screen.getByRole("button", { name: "Add files" }));
    await waitFor(() => expect(pickAttachment).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole("button", { name: /^Remove/ })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    outcome = "throw";
    fireEvent.press(screen.getByRole("button", { name: "Add files" }));
    expect(await screen.findByText("Something went wrong. Please try again.")).toBeTruthy();
    expect(draft()).toEqual({ title: "Crash", details: "On start" });
  });

  test("shows the quota message in German and keeps title, details and attachments; sending again works", async () => {
    let quotaLeft = false;
    const { configLoaded, posts } = setup({
      routes: [
        config(),
        ({ method, url }) =>
          method === "POST" && url.pathname === "/api/v1/feedback"
            ? quotaLeft
              ? { status: 201, body: { submissionId: "sub_2" } }
              : { status: 402, body: { error: "Monthly submission quota reached for this workspace", code: "tier_limit_submissions" } }
            : undefined,
      ],
      locale: "de",
      props: { pickAttachment: () => descriptorPick },
    });
    await configLoaded();
    type("Absturz", "Beim Start", { title: "Titel", details: "Details" });
    fireEvent.press(screen.getByRole("button", { name: "Dateien hinzufügen" }));
    await screen.findByText("shot.png");
    fireEvent.press(screen.getByRole("button", { name: "Senden" }));
    expect(await screen.findByText("Diese App hat ihr monatliches Limit für Einsendungen erreicht. Bitte versuche es später erneut.")).toBeTruthy();
    expect(draft("Titel", "Details")).toEqual({ title: "Absturz", details: "Beim Start" });
    expect(screen.getByText("shot.png")).toBeTruthy();
    quotaLeft = true;
    fireEvent.press(screen.getByRole("button", { name: "Senden" }));
    expect(await screen.findByText("Referenz: sub_2")).toBeTruthy();
    // Both attempts sent the same draft.
    const sent = posts().map((c) => c.body as { title: string; description: string; attachments: { key: string }[] });
    expect(sent.map((body) => [body.title, body.description, body.attachments.map((x) => x.key)])).toEqual([
      ["Absturz", "Beim Start", ["up_9"]],
      ["Absturz", "Beim Start", ["up_9"]],
    ]);
  });

  const failures: [string, Pick<Setup, "routes" | "wrap">, string][] = [
    [
      "verification required",
      { routes: [config(), on("POST", "/api/v1/feedback", { status: 403, body: { error: "Human verification is required", code: "verification_required" } })] },
      "Please complete the human verification and try again.",
    ],
    [
      "inactive subscription",
      { routes: [config(), on("POST", "/api/v1/feedback", { status: 402, body: { error: "This workspace's subscription is inactive", code: "subscription_inactive" } })] },
      "Submissions to this app are paused right now.",
    ],
    [
      "a network failure",
      {
        routes: [config()],
        wrap: (fetch) => async (input, init) => {
          if (init?.method === "POST") throw new TypeError("Network request failed");
          return fetch(input, init);
        },
      },
      "Could not reach the server. Check your connection and try again.",
    ],
  ];

  test.each(failures)("shows the localized message for %s and keeps the draft", async (_name, routes, message) => {
    const { configLoaded } = setup({ ...routes });
    await configLoaded();
    type("Crash", "On start");
    fireEvent.press(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(draft()).toEqual({ title: "Crash", details: "On start" });
    expect(screen.getByRole("button", { name: "Send" })).toBeTruthy();
  });

  test("shows the localized timeout message when the server does not answer in time, and keeps the draft", async () => {
    const { timers, fireAll } = manualTimers();
    let posted = false;
    const { configLoaded } = setup({
      routes: [config()],
      timers,
      wrap: (fetch) => (input, init) => {
        if (init?.method !== "POST") return fetch(input, init);
        posted = true;
        return new Promise<Response>(() => undefined);
      },
    });
    await configLoaded();
    type("Crash", "On start");
    fireEvent.press(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(posted).toBe(true));
    expect(screen.getByRole("button", { name: "Sending…" })).toBeTruthy();
    act(() => fireAll());
    expect(await screen.findByText("The request took too long. Check your connection and try again.")).toBeTruthy();
    expect(draft()).toEqual({ title: "Crash", details: "On start" });
  });

  test("with the feedback flag off shows only the unavailable state: no picks, no submit, nothing fetched beyond the config", async () => {
    const pickAttachment = jest.fn(() => descriptorPick);
    const { api } = setup({ routes: [config({ features: { feedback: false } })], props: { pickAttachment } });
    expect(await screen.findByText("Feedback is not available right now.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Send" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Add files" })).toBeNull();
    expect(screen.queryByLabelText("Title")).toBeNull();
    await act(async () => {
      await new Promise((resolve) => setImmediate(resolve));
    });
    expect(pickAttachment).not.toHaveBeenCalled();
    expect(api.calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(["GET /api/v1/public/config/app_test"]);
  });

  test("shows upload progress, then the ready row with its thumbnail; Send waits for the upload", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // expo-image-picker's answer, mapped as the pickAttachment documentation shows.
    const expoResult = { canceled: false, assets: [{ uri: "file:///data/user/0/app/cache/ImagePicker/shot.png", fileName: "shot.png", mimeType: "image/png", width: 1170, height: 2532, fileSize: 1000 }] };
    const pickAttachment = async () => {
      const result = await Promise.resolve(expoResult);
      if (result.canceled) return null;
      return result.assets.map((a) => ({ fileUri: a.uri, filename: a.fileName ?? undefined, mimeType: a.mimeType ?? undefined }));
    };
    const { api, configLoaded, posts } = setup({
      routes: [config(), uploaded, accepted],
      props: { pickAttachment },
      wrap: (fetch) => async (input, init) => {
        if (String(input).includes("/uploads/")) await gate;
        return fetch(input, init);
      },
    });
    await configLoaded();
    type("Crash", "");
    fireEvent.press(screen.getByRole("button", { name: "Add files" }));
    expect(await screen.findByLabelText("Uploading shot.png…")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
    expect(screen.getByTestId("tidings-attachment-thumbnail").props.source).toEqual({ uri: expoResult.assets[0]!.uri });
    await act(async () => {
      release();
      await gate;
    });
    expect(await screen.findByLabelText("shot.png attached")).toBeTruthy();
    expect(screen.queryByLabelText("Uploading shot.png…")).toBeNull();
    expect(screen.getByRole("button", { name: "Send" })).toBeEnabled();
    expect(api.calls.filter((c) => c.url.pathname.startsWith("/api/v1/uploads/")).map((c) => c.url.pathname)).toEqual(["/api/v1/uploads/images"]);
    expect(fileParts(api.calls)).toEqual([[{ uri: expoResult.assets[0]!.uri, name: "shot.png", type: "image/png" }]]);
    fireEvent.press(screen.getByRole("button", { name: "Send" }));
    await screen.findByText("Thank you! Your feedback was sent.");
    expect((posts()[0]!.body as { attachments: unknown[] }).attachments).toEqual([expect.objectContaining({ kind: "image", key: "up_1", filename: "shot.png", mimeType: "image/png" })]);
  });

  test("the react-native-image-picker recipe uploads each asset as an image file part under its own name, and a failed upload shows its error", async () => {
    // react-native-image-picker's ImagePickerResponse.
    const response: { didCancel?: boolean; errorCode?: string; errorMessage?: string; assets?: { uri?: string; fileName?: string; type?: string; fileSize?: number }[] } = {
      assets: [
        { uri: "content://media/external/images/media/1000012345", fileName: "IMG_0001.jpg", type: "image/jpeg", fileSize: 10 },
        { uri: "file:///tmp/second.png", fileName: "second.png", type: "image/png", fileSize: 10 },
      ],
    };
    const pickAttachment = async () => {
      if (response.didCancel) return null;
      if (response.errorCode !== undefined) throw new Error(response.errorMessage ?? response.errorCode);
      return (response.assets ?? []).map((a) => ({ fileUri: a.uri, filename: a.fileName, mimeType: a.type }));
    };
    let uploads = 0;
    const { api, configLoaded } = setup({
      routes: [
        config(),
        ({ method, url }) =>
          method === "POST" && url.pathname === "/api/v1/uploads/images"
            ? ++uploads === 1
              ? { status: 201, body: { kind: "image", key: "up_1", url: "https://files.test/up_1.jpg" } }
              : { status: 503, body: { error: "Storage is down", code: "service_unavailable" } }
            : undefined,
      ],
      props: { pickAttachment },
    });
    await configLoaded();
    fireEvent.press(screen.getByRole("button", { name: "Add files" }));
    expect(await screen.findByLabelText("IMG_0001.jpg attached")).toBeTruthy();
    expect(await screen.findByText("Something went wrong. Please try again.")).toBeTruthy();
    expect(screen.getByText("second.png")).toBeTruthy();
    expect(screen.getAllByTestId("tidings-attachment-thumbnail").map((i) => (i.props.source as { uri: string }).uri)).toEqual(response.assets!.map((a) => a.uri));
    const sent = api.calls.filter((c) => c.url.pathname.startsWith("/api/v1/uploads/"));
    expect(sent.map((c) => c.url.pathname)).toEqual(["/api/v1/uploads/images", "/api/v1/uploads/images"]);
    expect(fileParts(sent)).toEqual([
      [{ uri: "content://media/external/images/media/1000012345", name: "IMG_0001.jpg", type: "image/jpeg" }],
      [{ uri: "file:///tmp/second.png", name: "second.png", type: "image/png" }],
    ]);
  });

  test("a successful submit shows the reference, clears the draft, and Send more feedback starts a fresh one", async () => {
    const onSubmitted = jest.fn();
    const { configLoaded } = setup({ routes: [config(), accepted], props: { pickAttachment: () => descriptorPick, onSubmitted } });
    await configLoaded();
    type("Crash", "On start");
    fireEvent.press(screen.getByRole("button", { name: "Add files" }));
    await screen.findByText("shot.png");
    fireEvent.press(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("Reference: sub_1")).toBeTruthy();
    expect(onSubmitted).toHaveBeenCalledWith("sub_1");
    expect(screen.queryByLabelText("Title")).toBeNull();
    fireEvent.press(screen.getByRole("button", { name: "Send more feedback" }));
    expect(draft()).toEqual({ title: "", details: "" });
    expect(screen.queryByText("shot.png")).toBeNull();
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  test("follows the host's login and logout: the next request carries the token the provider was given", async () => {
    const tokens: (string | undefined)[] = [];
    const api = fakeFetch([config(), accepted]);
    const watch: FetchLike = (input, init) => {
      if (init?.method === "POST") tokens.push((init.headers as Record<string, string>)["X-User-Token"]);
      return api.fetch(input, init);
    };
    const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: watch, storage: memoryStorage(), warn: () => undefined });
    const ui = (userToken?: string) => (
      <TidingsProvider client={client} locale="en" userToken={userToken}>
        <FeedbackComposer />
      </TidingsProvider>
    );
    const send = async () => {
      fireEvent.changeText(screen.getByLabelText("Title"), "Crash");
      fireEvent.press(screen.getByRole("button", { name: "Send" }));
      fireEvent.press(await screen.findByRole("button", { name: "Send more feedback" }));
    };
    const view = render(ui(undefined));
    await send();
    view.rerender(ui("user-a"));
    await send();
    view.rerender(ui(undefined));
    await send();
    const anonymous = await client.tokens.getToken();
    expect(anonymous).not.toBe("user-a");
    expect(tokens).toEqual([anonymous, "user-a", anonymous]);
  });

  test("with an outbox, a submission without a connection is saved on the device, then sent once under the same key when the connection is back", async () => {
    let online = false;
    const offline: FakeRoute = (r) => {
      if (!online && r.method === "POST") throw new TypeError("Network request failed");
      return undefined;
    };
    const api = fakeFetch([config(), offline, accepted]);
    const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), warn: () => undefined });
    const outbox = new Outbox(client, { storage: memoryStorage() });
    render(
      <TidingsProvider client={client} locale="en" outbox={outbox}>
        <FeedbackComposer />
      </TidingsProvider>,
    );
    await waitFor(() => expect(api.calls.some((c) => c.url.pathname === "/api/v1/public/config/app_test")).toBe(true));
    type("Crash on start", "It closes at once.");
    fireEvent.press(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("Saved on this device. It will be sent when the connection is back.")).toBeTruthy();
    expect(outbox.pending).toHaveLength(1);
    fireEvent.press(screen.getByRole("button", { name: "Send more feedback" }));
    expect(draft()).toEqual({ title: "", details: "" });

    const events: string[] = [];
    outbox.subscribe((event) => events.push(event.type));
    online = true;
    await act(() => outbox.flush());
    expect(events).toContain("sent");
    const posts = api.calls.filter((c) => c.method === "POST" && c.url.pathname === "/api/v1/feedback");
    expect(posts.map((c) => c.body)).toEqual([expect.objectContaining({ title: "Crash on start", description: "It closes at once." }), expect.objectContaining({ title: "Crash on start", description: "It closes at once." })]);
    const keys = posts.map((c) => c.headers["idempotency-key"]);
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[1]).toBe(keys[0]);
    expect(outbox.pending).toEqual([]);
  });

  test("with an outbox, the saved-on-this-device notice turns into the sent one when the outbox delivers it", async () => {
    let online = false;
    const offline: FakeRoute = (r) => {
      if (!online && r.method === "POST") throw new TypeError("Network request failed");
      return undefined;
    };
    const api = fakeFetch([config(), offline, accepted]);
    const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), warn: () => undefined });
    const outbox = new Outbox(client, { storage: memoryStorage() });
    render(
      <TidingsProvider client={client} locale="de" locales={allLocales} outbox={outbox}>
        <FeedbackComposer />
      </TidingsProvider>,
    );
    await waitFor(() => expect(api.calls.some((c) => c.url.pathname === "/api/v1/public/config/app_test")).toBe(true));
    fireEvent.changeText(screen.getByLabelText("Titel"), "Absturz");
    fireEvent.press(screen.getByRole("button", { name: "Senden" }));
    expect(await screen.findByText("Auf diesem Gerät gespeichert. Es wird gesendet, sobald die Verbindung wieder da ist.")).toBeTruthy();
    online = true;
    await act(() => outbox.flush());
    expect(await screen.findByText("Referenz: sub_1")).toBeTruthy();
    expect(screen.queryByText("Auf diesem Gerät gespeichert. Es wird gesendet, sobald die Verbindung wieder da ist.")).toBeNull();
    expect(api.calls.filter((c) => c.method === "POST" && c.url.pathname === "/api/v1/feedback")).toHaveLength(2);
  });

  test("asks the app's feedback fields in the user's language and sends their values", async () => {
    const consent = { key: "consent", label: "Kontakt erlaubt", description: "", type: "checkbox", required: true, appliesTo: ["feedback"], options: [], limits: {}, position: 0 };
    const devices = { key: "devices", label: "Geräte", description: "", type: "multi_select", required: false, appliesTo: ["feedback"], options: [{ value: "phone", label: "Telefon" }, { value: "tablet", label: "Tablet" }], limits: {}, position: 1 };
    const proposalOnly = { ...devices, key: "plan", label: "Tarif", appliesTo: ["feature_request"], position: 2 };
    const { configLoaded, posts } = setup({
      routes: [config(), on("GET", "/api/v1/public/apps/app_test/fields", { status: 200, body: { fields: [consent, devices, proposalOnly] } }), accepted],
      locale: "de",
    });
    await configLoaded();
    const tick = await screen.findByRole("checkbox", { name: "Kontakt erlaubt (Pflichtfeld)" });
    expect(screen.queryByText("Tarif")).toBeNull();
    fireEvent.changeText(screen.getByLabelText("Titel"), "Absturz");
    fireEvent.press(screen.getByRole("button", { name: "Senden" }));
    expect(await screen.findByText("Bitte setze hier ein Häkchen.")).toBeTruthy();
    expect(screen.getByText("Bitte prüfe die oben markierten Felder.")).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.press(tick);
    fireEvent.press(screen.getByRole("checkbox", { name: "Tablet" }));
    fireEvent.press(screen.getByRole("button", { name: "Senden" }));
    expect(await screen.findByText("Referenz: sub_1")).toBeTruthy();
    expect((posts()[0]!.body as { fields: unknown }).fields).toEqual({ consent: true, devices: ["tablet"] });
  });
});

