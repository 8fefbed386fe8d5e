import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UnsupportedAttachmentException } from "./attachments.js";
import { FeedbackClient } from "./client.js";
import {
  InactiveSubscriptionException,
  NetworkException,
  QuotaExceededException,
  RequestTimeoutException,
  VerificationRequiredException,
} from "./errors.js";
import { AttachmentTooLargeError, FeedbackComposerController, type FeedbackComposerOptions } from "./feedback-composer.js";
import { Outbox } from "./outbox.js";
import type { FetchLike } from "./request.js";
import { memoryStorage } from "./storage.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

type Answer = () => Response | Promise<Response>;

const refusal = (status: number, code: string) => () => Response.json({ error: code, code }, { status });
const hang: Answer = () => new Promise<Response>(() => undefined);
const created: Answer = () => Response.json({ submissionId: "sub_1" }, { status: 201 });

/** Feedback answers `feedback()`; uploads take 1 s (fake time); the config is empty. */
function harness(options: FeedbackComposerOptions = {}, feedback: Answer = created, withOutbox = false) {
  const sent: Record<string, unknown>[] = [];
  let uploads = 0;
  const fetch: FetchLike = async (input, init) => {
    const path = new URL(input).pathname;
    if (path.startsWith("/api/v1/uploads/")) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const key = `up/${++uploads}`;
      return Response.json({ key, url: `https://cdn/${key}`, kind: "image" });
    }
    if (path === "/api/v1/feedback") {
      sent.push(JSON.parse(String(init.body)));
      return feedback();
    }
    return Response.json({});
  };
  const client = new FeedbackClient({ baseUrl: "https://api.example.com", appKey: "app_demo", fetch, userToken: "tok", defaultPlatform: "web", warn: () => undefined });
  const outbox = withOutbox ? new Outbox(client, { storage: memoryStorage() }) : undefined;
  return { composer: new FeedbackComposerController(client, { ...options, outbox }), sent, outbox };
}

const png = () => ({ file: new Blob(["png"]), filename: "shot.png", mimeType: "image/png" });

describe("FeedbackComposerController", () => {
  it.each([
    ["verification", refusal(403, "verification_required"), VerificationRequiredException],
    ["quota", refusal(402, "tier_limit_submissions"), QuotaExceededException],
    ["subscription", refusal(402, "subscription_inactive"), InactiveSubscriptionException],
    ["network", () => Promise.reject(new TypeError("fetch failed")), NetworkException],
    ["timeout", hang, RequestTimeoutException],
  ] as const)("keeps title, details, platform and attachments after a %s failure", async (_name, answer, ErrorClass) => {
    const { composer } = harness({}, answer);
    composer.setTitle("Crash on start");
    composer.setDetails("It crashes when I open it.");
    composer.setPlatform("ios");
    composer.addAttachment({ kind: "image", key: "k1", url: "https://cdn/k1" });
    const before = composer.getState().draft;
    const outcome = composer.submit({}, { timeoutMs: 5000 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(await outcome).toBeNull();
    const state = composer.getState();
    expect(state.error).toBeInstanceOf(ErrorClass);
    expect(state).toMatchObject({ status: "error", canSubmit: true });
    expect(state.draft).toBe(before);
  });

  it("clears the draft only when the submission succeeds", async () => {
    const { composer, sent } = harness();
    composer.setTitle("Crash");
    composer.setDetails("on start");
    const result = await composer.submit({ reporterEmail: "ann@example.com" });
    expect(result).toEqual({ submissionId: "sub_1" });
    expect(composer.getState()).toMatchObject({ status: "sent", result, draft: { title: "", details: "", platform: undefined, attachments: [] } });
    expect(sent[0]).toMatchObject({ title: "Crash", description: "on start", platform: "web", reporterEmail: "ann@example.com" });
    composer.setTitle("Another");
    expect(composer.getState().status).toBe("idle");
  });

  it.each([
    ["no connection", () => Promise.reject(new TypeError("fetch failed"))],
    ["a timeout", hang],
  ] as const)("with an outbox, says a submission that met %s is queued, and clears the draft it keeps", async (_name, answer) => {
    const { composer, outbox } = harness({}, answer, true);
    composer.setTitle("Crash on start");
    composer.setDetails("It crashes when I open it.");
    composer.addAttachment({ kind: "image", key: "k1", url: "https://cdn/k1" });
    const outcome = composer.submit({}, { timeoutMs: 5000 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(await outcome).toBeNull();
    const state = composer.getState();
    expect(state).toMatchObject({ status: "queued", error: undefined, result: null, draft: { title: "", details: "", attachments: [] } });
    expect(outbox!.pending).toEqual([state.queued]);
    expect(state.queued?.payload).toMatchObject({ title: "Crash on start", details: "It crashes when I open it.", attachments: [{ key: "k1" }] });
    composer.setTitle("Another");
    expect(composer.getState().status).toBe("idle");
  });

  it("with an outbox, still shows a refusal as an error and keeps the draft", async () => {
    const { composer, outbox } = harness({}, refusal(402, "tier_limit_submissions"), true);
    composer.setTitle("Crash");
    const before = composer.getState().draft;
    expect(await composer.submit()).toBeNull();
    expect(composer.getState()).toMatchObject({ status: "error", queued: null });
    expect(composer.getState().error).toBeInstanceOf(QuotaExceededException);
    expect(composer.getState().draft).toBe(before);
    expect(outbox!.pending).toEqual([]);
  });

  it("uploads picks at once, waits for running uploads on submit and sends every ready attachment", async () => {
    const { composer, sent } = harness();
    composer.setTitle("Screenshots");
    composer.addAttachment({ kind: "image", key: "pre", url: "https://cdn/pre" });
    composer.addAttachment(png());
    composer.addAttachment({ fileUri: "file:///tmp/log.png" });
    const bad = composer.addAttachment({ uri: "file:///nope" });
    expect(composer.getState().draft.attachments.map((a) => a.status)).toEqual(["ready", "uploading", "uploading", "error"]);
    expect(composer.getState().draft.attachments.find((a) => a.id === bad)?.error).toBeInstanceOf(UnsupportedAttachmentException);
    const outcome = composer.submit();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await outcome).not.toBeNull();
    expect((sent[0]!.attachments as { key: string }[]).map((a) => a.key)).toEqual(["pre", "up/1", "up/2"]);
  });

  it("drops an attachment removed while it uploads", async () => {
    const { composer, sent } = harness();
    composer.setTitle("t");
    const id = composer.addAttachment(png())!;
    composer.removeAttachment(id);
    await vi.advanceTimersByTimeAsync(1000);
    expect(composer.getState().draft.attachments).toEqual([]);
    await composer.submit();
    expect(sent[0]!.attachments).toEqual([]);
  });

  it("sends the rule-4 platform: the chosen one, else the default, else the first allowed", async () => {
    const { composer } = harness({ config: { allowedPlatforms: ["ios", "android"] } });
    expect(composer.getState().platform).toBe("ios");
    composer.setPlatform("android");
    expect(composer.getState().platform).toBe("android");
    composer.setConfig({ allowedPlatforms: ["web", "ios"] });
    composer.setPlatform(undefined);
    expect(composer.getState().platform).toBe("web");
  });

  it("ignores picks and refuses to submit while the feedback flag is off or the title is blank", async () => {
    const { composer, sent } = harness({ config: { allowedPlatforms: [], sdk: { features: { feedback: false } } } });
    composer.setTitle("Crash");
    expect(composer.addAttachment(png())).toBeUndefined();
    expect(composer.getState()).toMatchObject({ enabled: false, canSubmit: false });
    expect(await composer.submit()).toBeNull();
    composer.setConfig(null);
    composer.setTitle("   ");
    expect(await composer.submit()).toBeNull();
    expect(sent).toEqual([]);
  });

  it("keeps a file over the size limit as an error row without uploading it, with what previews need", async () => {
    const { composer, sent } = harness({ config: { allowedPlatforms: [], sdk: {}, maxAttachmentBytes: 4 } });
    composer.setTitle("Screenshots");
    const big = { file: new Blob(["12345"]), filename: "big.png", mimeType: "image/png" };
    composer.addAttachment(big);
    composer.addAttachment({ file: { uri: "file:///shot.png", name: "shot.png", type: "image/png" }, filename: "shot.png", mimeType: "image/png" });
    composer.addAttachment({ kind: "image", key: "pre", url: "https://cdn/pre", size: 9 });
    const [tooLarge, local, descriptor] = composer.getState().draft.attachments;
    expect(tooLarge).toMatchObject({ name: "big.png", status: "error", size: 5, file: big.file });
    expect(tooLarge!.error).toBeInstanceOf(AttachmentTooLargeError);
    expect(tooLarge!.error).toMatchObject({ filename: "big.png", size: 5, limit: 4 });
    expect(local).toMatchObject({ status: "uploading", uri: "file:///shot.png", size: undefined });
    expect(descriptor).toMatchObject({ status: "ready", uri: "https://cdn/pre", size: 9 });
    const outcome = composer.submit();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await outcome).not.toBeNull();
    expect((sent[0]!.attachments as { key: string }[]).map((a) => a.key)).toEqual(["up/1", "pre"]);
  });

  it("with holdWhileUploading, cannot submit until the uploads answered", async () => {
    const { composer, sent } = harness({ holdWhileUploading: true });
    composer.setTitle("Screenshots");
    composer.addAttachment(png());
    expect(composer.getState()).toMatchObject({ uploading: true, canSubmit: false });
    expect(await composer.submit()).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(composer.getState()).toMatchObject({ uploading: false, canSubmit: true });
    expect(await composer.submit()).not.toBeNull();
    expect(sent).toHaveLength(1);
  });

  it("keeps the draft when its settings change, and uses the new token from then on", async () => {
    const tokens: (string | null)[] = [];
    const fetch: FetchLike = async (_input, init) => {
      tokens.push(new Headers(init.headers).get("X-User-Token"));
      return Response.json({ submissionId: "sub_1" }, { status: 201 });
    };
    const client = new FeedbackClient({ baseUrl: "https://api.example.com", appKey: "app_demo", fetch, userToken: "tok", warn: () => undefined });
    const composer = new FeedbackComposerController(client, { userToken: "user-a" });
    composer.setTitle("Crash");
    composer.setSettings({ userToken: "user-b", defaultPlatform: "android" });
    expect(composer.getState()).toMatchObject({ platform: "android", draft: { title: "Crash" } });
    await composer.submit();
    expect(tokens).toEqual(["user-b"]);
  });

  it("moves a queued notice to sent once the outbox delivered it, and leaves a newer draft alone", async () => {
    let answer: Answer = () => Promise.reject(new TypeError("fetch failed"));
    const { composer, outbox, sent } = harness({}, () => answer(), true);
    composer.setTitle("Crash");
    await composer.submit();
    expect(composer.getState().status).toBe("queued");
    answer = created;
    await outbox!.flush();
    expect(composer.getState()).toMatchObject({ status: "sent", result: { submissionId: "sub_1" }, queued: null });
    expect(sent).toHaveLength(2);

    answer = () => Promise.reject(new TypeError("fetch failed"));
    composer.setTitle("Second");
    await composer.submit();
    composer.setTitle("Third, being typed");
    answer = created;
    await outbox!.flush();
    expect(composer.getState()).toMatchObject({ status: "idle", result: null, draft: { title: "Third, being typed" } });
  });
});
