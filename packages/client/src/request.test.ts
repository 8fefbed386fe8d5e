import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AbortError, InvalidResponseException, NetworkException, RequestTimeoutException, UnexpectedStatusException } from "./errors.js";
import { createTransport, type FetchLike } from "./request.js";
import { systemTimers, type Timers } from "./timers.js";

/** A fetch that answers only when told to, and rejects like real fetch when its signal aborts. */
function pendingFetch() {
  const calls: { url: string; init: RequestInit; answer: (response: Response) => void }[] = [];
  const fetch: FetchLike = (url, init) =>
    new Promise<Response>((resolve, reject) => {
      calls.push({ url, init, answer: resolve });
      init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });
  return { fetch, calls };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the request path", () => {
  it("raises RequestTimeoutException when the budget runs out, and clears its timer", async () => {
    const { fetch } = pendingFetch();
    const send = createTransport({ baseUrl: "http://api", fetch, timers: systemTimers });
    const result = send({ method: "GET", path: "/x", timeoutMs: 1000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await result;
    expect(error).toBeInstanceOf(RequestTimeoutException);
    expect((error as RequestTimeoutException).timeoutMs).toBe(1000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("raises an error named AbortError when the caller aborts, not a timeout", async () => {
    const { fetch } = pendingFetch();
    const send = createTransport({ baseUrl: "http://api", fetch, timers: systemTimers });
    const controller = new AbortController();
    const result = send({ method: "GET", path: "/x", timeoutMs: 1000, signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    const error = await result;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).name).toBe("AbortError");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("does not call fetch with an already aborted signal", async () => {
    const { fetch, calls } = pendingFetch();
    const send = createTransport({ baseUrl: "http://api", fetch, timers: systemTimers });
    await expect(send({ method: "GET", path: "/x", timeoutMs: 1000, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(calls).toHaveLength(0);
  });

  it("times out a fetch that ignores its signal, body read included", async () => {
    let resolveBody: (text: string) => void = () => undefined;
    const fetch: FetchLike = async () => ({ status: 200, headers: new Headers(), text: () => new Promise<string>((r) => (resolveBody = r)) }) as Response;
    const send = createTransport({ baseUrl: "http://api", fetch, timers: systemTimers });
    const result = send({ method: "GET", path: "/x", timeoutMs: 500 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500);
    expect(await result).toBeInstanceOf(RequestTimeoutException);
    resolveBody("{}");
  });

  it("uses injected timers", async () => {
    const scheduled: { ms: number; run: () => void }[] = [];
    const timers: Timers = { now: () => 0, setTimeout: (run, ms) => scheduled.push({ ms, run }), clearTimeout: () => undefined };
    const { fetch } = pendingFetch();
    const send = createTransport({ baseUrl: "http://api", fetch, timers });
    const result = send({ method: "GET", path: "/x", timeoutMs: 7000 }).catch((e: unknown) => e);
    expect(scheduled[0]!.ms).toBe(7000);
    scheduled[0]!.run();
    expect(await result).toBeInstanceOf(RequestTimeoutException);
  });

  it("wraps a failed connection in NetworkException", async () => {
    const fetch: FetchLike = () => Promise.reject(new TypeError("fetch failed"));
    const send = createTransport({ baseUrl: "http://api", fetch, timers: systemTimers });
    const error = await send({ method: "GET", path: "/x", timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkException);
    expect(error).toBeInstanceOf(InvalidResponseException);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it("rejects a 2xx body that is not JSON, and reads an empty one as {}", async () => {
    let text = "not json";
    const fetch: FetchLike = async () => new Response(text, { status: 200 });
    const send = createTransport({ baseUrl: "http://api", fetch, timers: systemTimers });
    await expect(send({ method: "GET", path: "/x", timeoutMs: 1000 })).rejects.toBeInstanceOf(InvalidResponseException);
    text = "";
    expect((await send({ method: "GET", path: "/x", timeoutMs: 1000 })).data).toEqual({});
    await expect(send({ method: "GET", path: "/x", timeoutMs: 1000, allowEmptyBody: false })).rejects.toBeInstanceOf(InvalidResponseException);
  });

  it("builds the URL, sends JSON with its content type, and reads X-Request-Id into errors", async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const fetch: FetchLike = async (url, init) => {
      seen.push({ url, init });
      return new Response('{"error":"nope","code":"not_found"}', { status: 404, headers: { "X-Request-Id": "rid-abcdefgh" } });
    };
    const send = createTransport({ baseUrl: "http://api", fetch, timers: systemTimers });
    const error = await send({ method: "POST", path: "/x", query: { a: "1 2", b: undefined, c: 3, tag: ["ui", "sync"], none: [] }, json: { x: 1 }, timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(seen[0]!.url).toBe("http://api/x?a=1+2&c=3&tag=ui&tag=sync");
    expect((seen[0]!.init.headers as Record<string, string>)["Content-Type"]).toBe("application/json");
    expect(seen[0]!.init.body).toBe('{"x":1}');
    expect(error).toBeInstanceOf(UnexpectedStatusException);
    expect((error as UnexpectedStatusException).requestId).toBe("rid-abcdefgh");
  });
});
