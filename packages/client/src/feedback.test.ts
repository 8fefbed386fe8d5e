import { describe, expect, it } from "vitest";
import { client, recorder } from "./testing/recorder.js";

describe("FeedbackClient feedback", () => {
  it("forwards the draft or default platform on submit without checking any allowlist", async () => {
    const { seen, fetch } = recorder(() => Response.json({ submissionId: "s1" }, { status: 201 }));
    const c = client(fetch, { defaultPlatform: "android" });
    await c.submitFeedback({ title: "Crash", details: "on start" });
    await c.submitFeedback({ title: "Crash", details: "on start", platform: "macos" });
    expect(seen.map((s) => (s.body as { platform: string }).platform)).toEqual(["android", "macos"]);
    expect((seen[0]!.body as { metadata: Record<string, string> }).metadata.sdk).toMatch(/^tidings-client\//);
  });

  it("sends the feature request the user picked, and nothing when none was picked", async () => {
    const { seen, fetch } = recorder(() => Response.json({ submissionId: "s1" }, { status: 201 }));
    const c = client(fetch);
    await c.submitFeedback({ title: "Offline", details: "please", featureRequestId: "fr_01jq0000000000000000000000" });
    await c.submitFeedback({ title: "Offline", details: "please" });
    expect(seen.map((s) => (s.body as { featureRequestId?: string }).featureRequestId)).toEqual(["fr_01jq0000000000000000000000", undefined]);
  });

  it("uploads pending attachments before submitting feedback: images and objects to their endpoints", async () => {
    const { seen, fetch } = recorder((s) =>
      s.url.pathname.startsWith("/api/v1/uploads/")
        ? Response.json({ key: `k${s.url.pathname.length}`, url: "https://cdn/x", kind: s.url.pathname.endsWith("images") ? "image" : "file" })
        : Response.json({ submissionId: "s1" }),
    );
    const descriptor = { kind: "image", key: "pre", url: "https://cdn/pre" };
    await client(fetch).submitFeedback({
      title: "t",
      details: "d",
      attachments: [descriptor, { file: new Blob(["png"]), filename: "a.png", mimeType: "image/png" }, { file: new Uint8Array([1]), filename: "a.log", mimeType: "text/plain" }],
    });
    expect(seen.map((s) => s.url.pathname)).toEqual(["/api/v1/uploads/images", "/api/v1/uploads/objects", "/api/v1/feedback"]);
    const form = seen[0]!.body as FormData;
    expect(form.get("appKey")).toBe("app_demo");
    expect((form.get("file") as File).name).toBe("a.png");
    expect((seen[2]!.body as { attachments: unknown[] }).attachments).toHaveLength(3);
    expect((seen[2]!.body as { attachments: unknown[] }).attachments[0]).toEqual(descriptor);
  });

  it("sends the draft's submittedAt, so a retry under the same key repeats the same body", async () => {
    const { seen, fetch } = recorder(() => Response.json({ submissionId: "s1" }));
    let now = Date.parse("2025-03-01T10:00:00Z");
    const c = client(fetch, { timers: { now: () => now, setTimeout: () => 0, clearTimeout: () => undefined } });
    await c.submitFeedback({ title: "Crash", details: "on start", submittedAt: "2025-02-28T09:00:00.000Z" }, { idempotencyKey: "k" });
    now += 60_000;
    await c.submitFeedback({ title: "Crash", details: "on start", submittedAt: "2025-02-28T09:00:00.000Z" }, { idempotencyKey: "k" });
    await c.submitFeedback({ title: "Crash", details: "on start" });
    const posts = seen.filter((s) => s.method === "POST");
    expect(posts[1]!.body).toEqual(posts[0]!.body);
    expect(posts.map((s) => (s.body as { metadata: Record<string, string> }).metadata.submittedAt)).toEqual([
      "2025-02-28T09:00:00.000Z",
      "2025-02-28T09:00:00.000Z",
      "2025-03-01T10:01:00.000Z",
    ]);
  });

  it("sends the custom field values of the draft, and no fields when it has none", async () => {
    const { seen, fetch } = recorder(() => Response.json({ submissionId: "s1" }, { status: 201 }));
    const c = client(fetch);
    await c.submitFeedback({ title: "Crash", details: "on start", fields: { severity: "high", repro: 3 } });
    await c.submitFeedback({ title: "Crash", details: "on start" });
    expect((seen[0]!.body as { fields: unknown }).fields).toEqual({ severity: "high", repro: 3 });
    expect(Object.keys(seen[1]!.body as object)).not.toContain("fields");
  });
});
