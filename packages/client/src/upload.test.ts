import { afterEach, describe, expect, it, vi } from "vitest";
import type { RequestTimeoutException } from "./errors.js";
import type { FetchLike } from "./request.js";
import { client } from "./testing/recorder.js";

afterEach(() => vi.useRealTimers());

describe("FeedbackClient uploads", () => {
  it("gives uploads their own budget, overridable per call", async () => {
    vi.useFakeTimers();
    const hang: FetchLike = (_url, init) => new Promise((_r, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted"))));
    const c = client(hang, { uploadTimeoutMs: 5000 });
    const upload = c.uploadAttachment({ file: new Blob(["x"]), filename: "x.png", mimeType: "image/png" }).catch((e: unknown) => e);
    const fast = c.uploadAttachment({ file: new Blob(["x"]), filename: "x.png", mimeType: "image/png", timeoutMs: 100 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect(((await fast) as RequestTimeoutException).timeoutMs).toBe(100);
    await vi.advanceTimersByTimeAsync(4900);
    expect(((await upload) as RequestTimeoutException).timeoutMs).toBe(5000);
  });
});
