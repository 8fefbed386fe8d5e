import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FeedbackClient } from "./client.js";
import { NetworkException, RequestTimeoutException, UnexpectedStatusException } from "./errors.js";
import { Outbox, OutboxFullError, type OutboxEvent, type OutboxOptions } from "./outbox.js";
import type { FetchLike } from "./request.js";
import { memoryStorage, type StorageAdapter } from "./storage.js";

type Answer = () => Response | Promise<Response>;

const refusal = (status: number, code: string, headers: Record<string, string> = {}): Answer => () =>
  Response.json({ error: code, code }, { status, headers });
const hang: Answer = () => new Promise<Response>(() => undefined);

/**
 * The far side of the wire: offline (every request fails like fetch does) or online, when intake
 * POSTs take the scripted answers in turn and then succeed.
 */
function fakeServer() {
  const posts: { path: string; key: string | undefined; token: string | undefined; body: Record<string, unknown> }[] = [];
  const state = { online: true, answers: [] as Answer[] };
  const fetch: FetchLike = async (input, init) => {
    if (!state.online) throw new TypeError("fetch failed");
    const url = new URL(input);
    if (url.pathname.includes("/public/config/")) return Response.json({ appKey: "app_demo" });
    if (url.pathname.startsWith("/api/v1/uploads/")) return Response.json({ key: "up/1", url: "https://cdn/up/1", kind: "image" });
    const headers = init.headers as Record<string, string>;
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    posts.push({ path: url.pathname.replace("/api/v1", ""), key: headers["Idempotency-Key"], token: headers["X-User-Token"], body });
    const answer = state.answers.shift();
    if (answer !== undefined) return answer();
    if (url.pathname.endsWith("/feedback")) return Response.json({ submissionId: `sub_${posts.length}` }, { status: 201 });
    return Response.json({ featureRequestId: `fr_${posts.length}`, pending: true }, { status: 201 });
  };
  return { posts, state, fetch };
}

function harness(options: Partial<OutboxOptions> = {}) {
  const server = fakeServer();
  const storage = options.storage ?? memoryStorage();
  const client = new FeedbackClient({ baseUrl: "https://api.example.com", appKey: "app_demo", fetch: server.fetch, userToken: "tok-1", warn: () => undefined });
  let ids = 0;
  const make = (more: Partial<OutboxOptions> = {}) =>
    new Outbox(client, { storage, random: () => 0.5, generateId: () => `id-${++ids}`, ...options, ...more });
  const outbox = make();
  const events: OutboxEvent[] = [];
  outbox.subscribe((event) => events.push(event));
  const eventTypes = () => events.map((e) => e.type).filter((t) => t !== "changed");
  return { ...server, storage, client, outbox, make, events, eventTypes };
}

const draft = { title: "Crash on start", details: "It closes at once." };

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.parse("2025-03-01T10:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Outbox submit-or-queue", () => {
  it("keeps feedback made offline and sends it once, under the same key and body, when the connection is back", async () => {
    const { outbox, state, posts, storage, eventTypes } = harness();
    state.online = false;
    const outcome = await outbox.submitFeedbackOrQueue(draft);
    if (outcome.status !== "queued") throw new Error("not queued");
    expect(outbox.pending).toEqual([outcome.entry]);
    expect(JSON.parse(String(await storage.getItem("service_outbox_v1:app_demo")))).toEqual(outbox.pending);
    expect(outbox.pending[0]).toMatchObject({ kind: "feedback", userToken: "tok-1", attempts: 1, lastError: { message: "Network request failed" } });

    state.online = true;
    await outbox.flush();
    expect(outbox.pending).toEqual([]);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.key).toBe(outcome.entry.idempotencyKey);
    expect((posts[0]!.body.metadata as Record<string, string>).submittedAt).toBe("2025-03-01T10:00:00.000Z");
    expect(eventTypes()).toEqual(["queued", "sent"]);
    expect(await storage.getItem("service_outbox_v1:app_demo")).toBeNull();
  });

  it("retries a submission whose answer never came with the key and body of the first attempt", async () => {
    const { outbox, state, posts } = harness();
    state.answers.push(hang);
    const pending = outbox.submitFeatureRequestOrQueue({ title: "Dark mode", details: "please" });
    await vi.advanceTimersByTimeAsync(15_000);
    const outcome = await pending;
    expect(outcome.status).toBe("queued");
    expect(outbox.pending[0]!.lastError?.message).toBe(new RequestTimeoutException(15_000).message);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(posts).toHaveLength(1);
    await outbox.flush();
    expect(posts).toHaveLength(2);
    expect(posts[1]!.key).toBe(posts[0]!.key);
    expect(posts[1]!.body).toEqual(posts[0]!.body);
    expect(outbox.pending).toEqual([]);
  });

  it("answers sent when the server answers, and throws (queueing nothing) when it refuses", async () => {
    const { outbox, state } = harness();
    expect(await outbox.submitFeedbackOrQueue(draft)).toEqual({ status: "sent", result: { submissionId: "sub_1" } });
    state.answers.push(refusal(403, "platform_not_allowed"), refusal(500, "internal_error"));
    await expect(outbox.submitFeedbackOrQueue(draft)).rejects.toBeInstanceOf(UnexpectedStatusException);
    await expect(outbox.submitFeedbackOrQueue(draft)).rejects.toMatchObject({ status: 500 });
    expect(outbox.pending).toEqual([]);
  });

  it("queues on a gateway's 502, 503 and 504: the server behind it is out of reach", async () => {
    const { outbox, state } = harness();
    state.answers.push(refusal(502, "bad_gateway"), refusal(503, "service_unavailable"), refusal(504, "gateway_timeout"));
    for (let i = 0; i < 3; i++) expect((await outbox.submitFeatureRequestOrQueue({ title: `Idea ${i}` })).status).toBe("queued");
    expect(outbox.pending.map((e) => e.lastError?.status)).toEqual([502, 503, 504]);
  });

  it("uploads picked files first and queues only their descriptors; a draft's verification token is used once, never stored", async () => {
    const { outbox, state, posts, storage } = harness();
    const shot = { file: new Blob(["png"]), filename: "shot.png", mimeType: "image/png" };
    state.answers.push(() => Promise.reject(new TypeError("fetch failed")));
    const outcome = await outbox.submitFeedbackOrQueue({ ...draft, attachments: [shot], verificationToken: "single-use" });
    expect(outcome.status).toBe("queued");
    expect(posts[0]!.body.verificationToken).toBe("single-use");
    const stored = String(await storage.getItem("service_outbox_v1:app_demo"));
    expect(stored).not.toContain("single-use");
    expect(outbox.pending[0]!.payload).toMatchObject({ attachments: [{ key: "up/1", url: "https://cdn/up/1", kind: "image", filename: "shot.png", mimeType: "image/png" }] });
    await outbox.flush();
    expect(posts[1]!.body.attachments).toEqual(posts[0]!.body.attachments);
    expect(posts[1]!.body.verificationToken).toBeUndefined();
  });

  it("refuses to queue bytes", async () => {
    const { outbox } = harness();
    const bytes = { file: new Uint8Array([1]), filename: "a.log", mimeType: "text/plain" };
    await expect(outbox.enqueue("feedback", { ...draft, attachments: [bytes as never] })).rejects.toThrow(/descriptors only/);
    expect(outbox.pending).toEqual([]);
  });

  it("rethrows the connection error when the outbox is full (50 entries by default)", async () => {
    const { outbox, state } = harness();
    for (let i = 0; i < 50; i++) await outbox.enqueue("featureRequest", { title: `Idea ${i}` });
    await expect(outbox.enqueue("featureRequest", { title: "One more" })).rejects.toBeInstanceOf(OutboxFullError);
    state.online = false;
    await expect(outbox.submitFeatureRequestOrQueue({ title: "One more" })).rejects.toBeInstanceOf(NetworkException);
    expect(outbox.pending).toHaveLength(50);
  });

  it("sends what waits once a direct submission gets through", async () => {
    const { outbox, state, posts } = harness();
    state.online = false;
    await outbox.submitFeatureRequestOrQueue({ title: "First" });
    state.online = true;
    await outbox.submitFeatureRequestOrQueue({ title: "Second" });
    await vi.advanceTimersByTimeAsync(0);
    expect(posts.map((p) => p.body.title)).toEqual(["Second", "First"]);
    expect(outbox.pending).toEqual([]);
  });
});

describe("Outbox flushing", () => {
  it("survives a restart: a new outbox over the same storage sends what the old one kept", async () => {
    const storage: StorageAdapter = memoryStorage();
    const before = harness({ storage });
    await before.outbox.enqueue("feedback", draft);
    const after = harness({ storage });
    expect(await after.outbox.load()).toHaveLength(1);
    await after.outbox.flush();
    expect(after.posts.map((p) => [p.path, p.key])).toEqual([["/feedback", before.outbox.pending[0]!.idempotencyKey]]);
    expect(await after.outbox.load()).toEqual([]);
  });

  it("retries 5xx, 429 and a key still in use on its own, waiting 2 s doubling (with jitter, at least Retry-After)", async () => {
    const { outbox, state, posts, eventTypes } = harness();
    state.answers.push(
      refusal(500, "internal_error"),
      refusal(503, "service_unavailable"),
      refusal(429, "rate_limited", { "Retry-After": "30" }),
      refusal(409, "idempotency_key_in_use"),
    );
    await outbox.enqueue("feedback", draft);
    outbox.start();
    await vi.advanceTimersByTimeAsync(0);
    // random() = 0.5: three quarters of 2 s, 4 s, 8 s (Retry-After 30 s wins), 16 s.
    for (const wait of [1500, 3000, 30_000, 12_000]) {
      const count = posts.length;
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(posts.length, `before ${wait} ms`).toBe(count);
      await vi.advanceTimersByTimeAsync(1);
      expect(posts.length, `after ${wait} ms`).toBe(count + 1);
    }
    expect(outbox.pending).toEqual([]);
    expect(new Set(posts.map((p) => p.key)).size).toBe(1);
    expect(eventTypes()).toEqual(["queued", "sent"]);
    outbox.stop();
  });

  it("never waits more than 5 minutes between attempts", async () => {
    const { outbox, state } = harness({ random: () => 0.999 });
    state.online = false;
    await outbox.enqueue("feedback", draft);
    for (let i = 0; i < 12; i++) await outbox.flush();
    const entry = outbox.pending[0]!;
    expect(entry.attempts).toBe(12);
    expect(entry.nextAttemptAt - Date.now()).toBeLessThanOrEqual(300_000);
    expect(entry.nextAttemptAt - Date.now()).toBeGreaterThan(299_000);
  });

  it("drops an entry the server refuses, reports it failed, and goes on with the next", async () => {
    const { outbox, state, posts, events, eventTypes } = harness();
    await outbox.enqueue("featureRequest", { title: "" });
    await outbox.enqueue("featureRequest", { title: "Dark mode" });
    state.answers.push(refusal(400, "validation_failed"));
    await outbox.flush();
    expect(posts).toHaveLength(2);
    expect(outbox.pending).toEqual([]);
    expect(eventTypes()).toEqual(["queued", "queued", "failed", "sent"]);
    const failed = events.find((e) => e.type === "failed") as Extract<OutboxEvent, { type: "failed" }>;
    expect(failed.entry.payload.title).toBe("");
    expect(failed.error).toMatchObject({ status: 400, code: "validation_failed" });
    const sent = events.find((e) => e.type === "sent") as Extract<OutboxEvent, { type: "sent" }>;
    expect(sent.result).toEqual({ featureRequestId: "fr_2", pending: true });
  });

  it("keeps the order: while the oldest entry waits, later ones wait behind it", async () => {
    const { outbox, state, posts } = harness();
    await outbox.enqueue("featureRequest", { title: "First" });
    await outbox.enqueue("featureRequest", { title: "Second" });
    state.answers.push(refusal(503, "service_unavailable"));
    outbox.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(posts.map((p) => p.body.title)).toEqual(["First"]);
    expect(outbox.pending.map((e) => [e.payload.title, e.attempts])).toEqual([
      ["First", 1],
      ["Second", 0],
    ]);
    await vi.advanceTimersByTimeAsync(1500);
    expect(posts.map((p) => p.body.title)).toEqual(["First", "First", "Second"]);
    outbox.stop();
  });

  it("never sends an entry twice at once: a flush during a flush joins it", async () => {
    const { outbox, state, posts } = harness();
    await outbox.enqueue("feedback", draft);
    let answer!: (response: Response) => void;
    state.answers.push(() => new Promise<Response>((resolve) => (answer = resolve)));
    const first = outbox.flush();
    await vi.advanceTimersByTimeAsync(0);
    const second = outbox.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(posts).toHaveLength(1);
    answer(Response.json({ submissionId: "sub_1" }, { status: 201 }));
    await Promise.all([first, second]);
    expect(posts).toHaveLength(1);
    expect(outbox.pending).toEqual([]);
  });

  it("sends as the user who submitted, after the token changed", async () => {
    const { outbox, client, posts } = harness();
    await outbox.enqueue("feedback", draft);
    await outbox.enqueue("feedback", draft, { userToken: "tok-2" });
    await client.tokens.setToken("someone-else");
    await outbox.flush();
    expect(posts.map((p) => [p.token, p.body.requesterToken])).toEqual([
      ["tok-1", undefined],
      ["tok-2", undefined],
    ]);
    expect(outbox.pending).toEqual([]);
  });

  it("keeps entries another outbox over the same storage added, and lets one be discarded", async () => {
    const { make, outbox } = harness();
    const other = make();
    const first = await outbox.enqueue("featureRequest", { title: "From here" });
    await other.enqueue("featureRequest", { title: "From the other tab" });
    expect(await outbox.remove(first.id)).toBe(true);
    expect((await other.load()).map((e) => e.payload.title)).toEqual(["From the other tab"]);
    expect(outbox.pending.map((e) => e.payload.title)).toEqual(["From the other tab"]);
    expect(await outbox.remove(first.id)).toBe(false);
  });

  it("reads a damaged stored queue as empty", async () => {
    const storage = memoryStorage();
    await storage.setItem("service_outbox_v1:app_demo", '[{"id":1},"x",{"kind":"feedback"}');
    expect(await harness({ storage }).outbox.load()).toEqual([]);
    await storage.setItem("service_outbox_v1:app_demo", '[{"id":1},"x",{"kind":"feedback"}]');
    expect(await harness({ storage }).outbox.load()).toEqual([]);
  });
});
