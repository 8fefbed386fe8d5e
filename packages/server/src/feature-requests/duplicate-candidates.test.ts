import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createApp } from "../apps/apps.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { indexedCandidates, LOOKUP_LIMIT, LOOKUP_STEMS } from "./duplicate-candidates.js";
import { createFeatureRequests, importedRequest, type NewFeatureRequest } from "./feature-requests.js";

describe.each(testDialects())("duplicate candidates from the search index on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  let otherAppId: string;
  const start = clock.now().getTime();
  const at = (i: number) => new Date(start + i * 1000).toISOString();
  let newest: { id: string; createdAt: string };

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: `cand-${dialect}` }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Candidates" })).row.id;
    otherAppId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Other" })).row.id;
    const inputs: NewFeatureRequest[] = [];
    // Many more requests hold "calendar" than one lookup answers.
    for (let i = 0; i < 3 * LOOKUP_LIMIT; i++) inputs.push({ ...importedRequest(appId, `Calendar idea ${i}`, ""), createdAt: at(i) });
    inputs.push({ ...importedRequest(appId, "Calendar sync with Outlook", ""), createdAt: at(100) });
    inputs.push({ ...importedRequest(appId, "Outlook integration", "sync my calendar"), createdAt: at(101) });
    inputs.push({ ...importedRequest(appId, "Calendar sync pending", "", false), createdAt: at(102) });
    inputs.push({ ...importedRequest(appId, "Calendar sync, the newest", ""), createdAt: at(200) });
    const rows = await createFeatureRequests(t.db.kysely, clock, dialect, appId, inputs);
    newest = rows.at(-1)!;
    await createFeatureRequests(t.db.kysely, clock, dialect, otherAppId, [{ ...importedRequest(otherAppId, "Calendar sync elsewhere", ""), createdAt: at(150) }]);
  });
  afterAll(() => t.cleanup());

  it("answers older public requests of the app whose titles hold the words, at most a few lookups' worth", async () => {
    const found = await indexedCandidates(t.db.kysely, dialect, { appId, stems: ["calend", "sync"], olderThan: newest });
    const titles = found.map((f) => f.title);
    // The request holding both words is found whatever the number holding one of them.
    expect(titles).toContain("Calendar sync with Outlook");
    // Not the pending one, not the one whose body alone holds the words, not another app's, not itself.
    for (const absent of ["Calendar sync pending", "Outlook integration", "Calendar sync elsewhere", "Calendar sync, the newest"]) expect(titles).not.toContain(absent);
    // One lookup per stem and one for both, each bounded.
    expect(found.length).toBeLessThanOrEqual(3 * LOOKUP_LIMIT);
    expect(found.filter((f) => f.title.startsWith("Calendar idea")).length).toBeLessThanOrEqual(LOOKUP_LIMIT);
    expect(found.every((f) => f.createdAt < newest.createdAt)).toBe(true);
  });

  it("looks up only a title's longest words, and nothing as old as the oldest request", async () => {
    const stems = ["zzzzzz", "yyyyyy", "xxxxxx", "wwwwww", "sync"];
    expect(LOOKUP_STEMS).toBe(4);
    expect(await indexedCandidates(t.db.kysely, dialect, { appId, stems, olderThan: newest })).toEqual([]);
    expect((await indexedCandidates(t.db.kysely, dialect, { appId, stems: ["sync"], olderThan: newest })).map((f) => f.title)).toEqual(["Calendar sync with Outlook"]);
    expect(await indexedCandidates(t.db.kysely, dialect, { appId, stems: ["calend"], olderThan: { createdAt: at(0), id: "fr_" } })).toEqual([]);
  });
});
