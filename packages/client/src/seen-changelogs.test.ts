import { describe, expect, it } from "vitest";
import { SEEN_CHANGELOGS_KEY, SeenChangelogStore } from "./seen-changelogs.js";
import { memoryStorage } from "./storage.js";

describe("SeenChangelogStore", () => {
  it("stores seen keys as a JSON array under service_seen_changelogs_v1", async () => {
    const storage = memoryStorage();
    const seen = new SeenChangelogStore(storage);
    expect(await seen.hasSeen("2.0.0")).toBe(false);
    await Promise.all([seen.markSeen("2.0.0"), seen.markSeen("2.1.0")]);
    expect(await seen.hasSeen("2.0.0")).toBe(true);
    expect(JSON.parse((await storage.getItem(SEEN_CHANGELOGS_KEY)) as string)).toEqual(["2.0.0", "2.1.0"]);
    await seen.clear();
    expect(await seen.hasSeen("2.1.0")).toBe(false);
  });

  it("reads the legacy comma-separated value", async () => {
    const storage = memoryStorage();
    await storage.setItem(SEEN_CHANGELOGS_KEY, "1.0, 1.1");
    expect(await new SeenChangelogStore(storage).hasSeen("1.1")).toBe(true);
  });
});
