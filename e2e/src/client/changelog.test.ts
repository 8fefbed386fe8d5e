import { FeedbackClient, memoryStorage, type StorageAdapter } from "@tidings/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "./real-server.js";

let server: RealServer;

beforeAll(async () => {
  server = await startRealServer();
});
afterAll(async () => {
  await server?.close();
});

/** A new app and a way to publish releases on it through the console. */
async function appWithReleases(slug: string) {
  const app = await server.createApp(slug);
  const publish = (title: string, versionLabel: string | null) =>
    server.consoleCall("POST", `/workspaces/${app.wsId}/changelog`, { appId: app.appId, title, body: `## ${title}\n\nDetails.`, versionLabel, publishNow: true });
  const client = (storage: StorageAdapter) => new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, storage, warn: () => undefined });
  return { app, publish, client };
}

describe("changelog against the real server", () => {
  it("reads published releases newest first, drafts left out", async () => {
    const { app, publish, client } = await appWithReleases("changelog-feed");
    await publish("First release", "1.0.0");
    await publish("Second release", "1.1.0");
    await server.consoleCall("POST", `/workspaces/${app.wsId}/changelog`, { appId: app.appId, title: "Draft", body: "Not yet." });
    const page = await client(memoryStorage()).getChangelog();
    expect(page.entries.map((e) => [e.title, e.versionLabel])).toEqual([
      ["Second release", "1.1.0"],
      ["First release", "1.0.0"],
    ]);
    expect(page.hasMore).toBe(false);
  });

  it("prepares the overlay only while the newest release is unseen, and not when the flag is off", async () => {
    const { app, publish, client } = await appWithReleases("changelog-overlay");
    const storage = memoryStorage();
    expect(await client(storage).prepareChangelogOverlay({ onlyIfUnseen: true })).toBeNull();

    await publish("Dark mode", "2.0.0");
    const overlay = await client(storage).prepareChangelogOverlay({ onlyIfUnseen: true });
    expect(overlay).toMatchObject({ latestKey: "2.0.0", entries: [{ title: "Dark mode" }] });

    // What the overlay marks on close, in the same storage: the next launch shows nothing.
    await client(storage).seenChangelogs.markSeen(overlay!.latestKey);
    expect(await client(storage).prepareChangelogOverlay({ onlyIfUnseen: true })).toBeNull();
    expect(await client(storage).prepareChangelogOverlay()).not.toBeNull();

    await publish("Widgets", null);
    const newer = await client(storage).prepareChangelogOverlay({ onlyIfUnseen: true });
    expect(newer?.entries.map((e) => e.title)).toEqual(["Widgets", "Dark mode"]);
    expect(newer?.latestKey).toBe(newer?.entries[0]?.id);

    await app.settings({ sdk: { features: { changelog: false } } });
    expect(await client(memoryStorage()).prepareChangelogOverlay()).toBeNull();
  });
});
