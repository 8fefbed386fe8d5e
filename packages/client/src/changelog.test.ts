import { describe, expect, it } from "vitest";
import { client, recorder } from "./testing/recorder.js";

describe("FeedbackClient changelog", () => {
  it("prepares the changelog overlay: null when the flag is off or the newest release was seen", async () => {
    let features: Record<string, boolean> = {};
    const { fetch } = recorder((s) =>
      s.url.pathname.includes("/config/")
        ? Response.json({ sdk: { features, changelogOverlay: { entryCount: 2 } } })
        : Response.json({
            entries: [
              { id: "c1", title: "Old", body: "", versionLabel: "1.0", publishedAt: "2024-01-01T00:00:00Z" },
              { id: "c2", title: "New", body: "", versionLabel: "1.1", publishedAt: "2024-02-01T00:00:00Z" },
              { id: "c3", title: "Oldest", body: "", versionLabel: null, publishedAt: "2023-01-01T00:00:00Z" },
            ],
          }),
    );
    const c = client(fetch);
    const overlay = await c.prepareChangelogOverlay({ onlyIfUnseen: true });
    expect(overlay?.latestKey).toBe("1.1");
    expect(overlay?.entries.map((e) => e.id)).toEqual(["c2", "c1"]);
    await c.seenChangelogs.markSeen("1.1");
    expect(await c.prepareChangelogOverlay({ onlyIfUnseen: true })).toBeNull();
    expect(await c.prepareChangelogOverlay()).not.toBeNull();
    features = { changelog: false };
    expect(await c.prepareChangelogOverlay()).toBeNull();
  });
});
