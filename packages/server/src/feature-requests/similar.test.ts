import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createApp } from "../apps/apps.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { reindex } from "../search/search-index.js";
import { createFeatureRequests, importedRequest, type NewFeatureRequest } from "./feature-requests.js";
import { FULL_LOOKUP, similarRequests } from "./similar.js";
import { titleMatches, WALKED_POSTINGS } from "./title-matches.js";

/** Words every request of the board is titled with, so each is shared by hundreds of them. */
const COMMON = ["dark", "mode", "export", "sync", "calendar", "theme", "widget", "filter"];
const BOARD = 3000;

describe.each(testDialects())("similar requests on a large board on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  const start = clock.now().getTime();
  const at = (i: number) => new Date(start + i * 1000).toISOString();

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: `similar-${dialect}` }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Large board" })).row.id;
    const inputs: NewFeatureRequest[] = [
      // The oldest request of the board, without a vote: the one a proposer should find.
      { ...importedRequest(appId, "Calendar sync with Outlook", ""), createdAt: at(0) },
      { ...importedRequest(appId, "Outlook calendar sync, waiting for review", "", false), createdAt: at(1) },
    ];
    // Thousands of newer, much-voted requests sharing the common words, two to a title (numbered
    // alike, so their titles are equally long), and every description says "Outlook".
    for (let i = 0; i < BOARD; i++) {
      const title = `${COMMON[i % COMMON.length]} ${COMMON[(i * 3 + 1) % COMMON.length]} idea ${10000 + i}`;
      inputs.push({ ...importedRequest(appId, title, "Works with Outlook too."), createdAt: at(10 + i), importedVotes: 50 + (i % 200) });
    }
    await createFeatureRequests(t.db.kysely, clock, dialect, appId, inputs);
  });
  afterAll(() => t.cleanup());

  const titles = async (title: string, limit = 5) => (await similarRequests(t.db.kysely, dialect, { appId, title, limit })).map((r) => r.title);

  it("puts the near-duplicate first, whatever the number of more voted requests sharing its common words", async () => {
    expect((await titles("Sync my Outlook calendar"))[0]).toBe("Calendar sync with Outlook");
    // Typed in part, the last word as a prefix.
    expect((await titles("calendar sync with outl"))[0]).toBe("Calendar sync with Outlook");
    // A word the near-duplicate lacks ("teams") does not hide it among requests holding one word.
    expect((await titles("Outlook calendar sync for teams"))[0]).toBe("Calendar sync with Outlook");
  });

  it("never lists a request waiting for review, nor one whose description alone holds the words", async () => {
    const found = await titles("outlook calendar", 10);
    expect(found).not.toContain("Outlook calendar sync, waiting for review");
    expect(found[0]).toBe("Calendar sync with Outlook");
    // "Outlook" is in every description but one title: the others hold "calendar" in their title.
    expect(found.slice(1).every((title) => title.startsWith("calendar ") || title.includes(" calendar "))).toBe(true);
  });

  it("lists requests holding every word typed, most alike then most voted, when hundreds do", async () => {
    const found = await similarRequests(t.db.kysely, dialect, { appId, title: "dark mode", limit: 5 });
    expect(found).toHaveLength(5);
    for (const item of found) expect(item.title).toMatch(/^(dark mode|mode dark) idea/);
    const votes = found.map((r) => r.voteCount);
    expect(votes).toEqual([...votes].sort((a, b) => b - a));
  });

  it("reads a bounded number of requests from the index per lookup, however many match", async () => {
    // Every title of the board says "idea": more requests than a lookup reads of one word.
    expect(BOARD).toBeGreaterThan(WALKED_POSTINGS);
    const one = await titleMatches(t.db.kysely, dialect, { appId }, [{ terms: ["idea"], limit: FULL_LOOKUP }]);
    expect(one).toHaveLength(FULL_LOOKUP);
    expect(one.every((m) => m.title.split(" ").includes("idea"))).toBe(true);
    // Several lookups in one statement: each bounded, a request found twice listed once.
    const two = await titleMatches(t.db.kysely, dialect, { appId }, [
      { terms: ["dark"], limit: 20 },
      { terms: ["dark", "mode"], limit: 20 },
    ]);
    expect(two.length).toBeGreaterThanOrEqual(20);
    expect(two.length).toBeLessThanOrEqual(40);
    expect(new Set(two.map((m) => m.id)).size).toBe(two.length);
    expect(await titleMatches(t.db.kysely, dialect, { appId, boardIds: [] }, [{ terms: ["dark"], limit: 20 }])).toEqual([]);
    // Two words each held by more titles than SQLite walks for a lookup of several ("idea" and
    // the numbers, all starting with 1): read by one of them, checked for the other.
    expect(BOARD).toBeGreaterThan(WALKED_POSTINGS);
    const both = await titleMatches(t.db.kysely, dialect, { appId }, [{ terms: ["idea", "1"], limit: FULL_LOOKUP }]);
    expect(both).toHaveLength(FULL_LOOKUP);
    expect(both.every((m) => / idea 1\d+$/.test(m.title))).toBe(true);
    expect(await titleMatches(t.db.kysely, dialect, { appId }, [{ terms: ["idea", "2"], limit: FULL_LOOKUP }])).toEqual([]);
  });

  it("follows a request's title and moderation, and keeps to its app", async () => {
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W2", slug: `similar-edits-${dialect}` }, null);
    const small = (await createApp(t.db.kysely, clock, workspace.id, { name: "Small board" })).row.id;
    const [row] = await createFeatureRequests(t.db.kysely, clock, dialect, small, [{ ...importedRequest(small, "Offline mode", ""), createdAt: at(0) }]);
    const inSmall = async (title: string) => (await similarRequests(t.db.kysely, dialect, { appId: small, title, limit: 5 })).map((r) => r.title);
    expect(await inSmall("offline")).toEqual(["Offline mode"]);
    // The large board's thousands of "dark" requests are another app's.
    expect(await inSmall("dark")).toEqual([]);
    await t.db.kysely.updateTable("featureRequests").set({ title: "Kiosk mode" }).where("id", "=", row!.id).execute();
    await reindex(t.db.kysely, dialect, row!.id);
    expect(await inSmall("offline")).toEqual([]);
    expect(await inSmall("kiosk")).toEqual(["Kiosk mode"]);
    await t.db.kysely.updateTable("featureRequests").set({ moderation: "declined" }).where("id", "=", row!.id).execute();
    await reindex(t.db.kysely, dialect, row!.id);
    expect(await inSmall("kiosk")).toEqual([]);
  });
});
