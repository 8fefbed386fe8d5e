import { describe, expect, it } from "vitest";
import { client, recorder } from "./testing/recorder.js";

describe("FeedbackClient requests", () => {
  it("sends the caller's Idempotency-Key on every POST method, and none on reads, deletes or blank keys", async () => {
    const { seen, fetch } = recorder((s) =>
      s.url.pathname.startsWith("/api/v1/uploads/") ? Response.json({ key: "k1", url: "https://cdn/k1" }) : Response.json({ submissionId: "s1" }),
    );
    const c = client(fetch);
    const idempotencyKey = "key-1";
    await c.submitFeedback({ title: "Crash", details: "on start" }, { idempotencyKey });
    await c.submitFeatureRequest({ title: "Dark mode" }, { idempotencyKey });
    await c.postComment("fr_1", { body: "hi" }, { idempotencyKey });
    await c.toggleVote("fr_1", { idempotencyKey });
    await c.uploadAttachment({ file: new Blob(["png"]), filename: "a.png", mimeType: "image/png" }, { idempotencyKey });
    await c.subscribeToChangelog("a@example.com", { idempotencyKey });
    await c.unsubscribeFromChangelog("a@example.com", { idempotencyKey });
    const keyed = seen.splice(0).filter((s) => !s.url.pathname.includes("/public/config/"));
    await c.removeVote("fr_1", { idempotencyKey } as object);
    await c.getConfig({ idempotencyKey } as object);
    await c.submitFeedback({ title: "Crash", details: "on start" }, { idempotencyKey: "  " });
    await c.submitFeedback({ title: "Crash", details: "on start" });
    expect(keyed.map((s) => `${s.method} ${s.url.pathname} ${s.headers["Idempotency-Key"]}`)).toEqual([
      "POST /api/v1/feedback key-1",
      "POST /api/v1/feature-requests key-1",
      "POST /api/v1/feature-requests/fr_1/comments key-1",
      "POST /api/v1/feature-requests/fr_1/vote key-1",
      "POST /api/v1/uploads/images key-1",
      "POST /api/v1/public/apps/app_demo/changelog/subscribe key-1",
      "POST /api/v1/public/apps/app_demo/changelog/unsubscribe key-1",
    ]);
    expect(seen.map((s) => `${s.method} ${s.headers["Idempotency-Key"]}`)).toEqual(["DELETE undefined", "GET undefined", "POST undefined", "POST undefined"]);
  });
});
