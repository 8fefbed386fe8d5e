import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { recordStatements, sqlitePlan } from "@tidings/testing/statement-recorder";
import { openTestDatabase, type TestDatabase } from "@tidings/testing/test-database";
import { createWorkspace } from "../workspaces/workspaces.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";
import { appPrefixes, searchTerms, searchText } from "../search/search-text.js";
import { rankOnSqlite } from "./sqlite-search.js";

// The SQLite-only ranking has two strategies (small result sets read whole, large ones paged
// tier by tier in the index); on the same board they must answer the same pages.
describe("search ranking on SQLite", () => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  const texts = new Map<string, { title: string; all: string; approved: boolean }>();

  beforeAll(async () => {
    t = await openTestDatabase("sqlite", { timeQueries: true });
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Ranked" })).row.id;
    const words = ["dark", "mode", "export", "sync", "calendar"];
    const inputs = Array.from({ length: 90 }, (_, i) =>
      importedRequest(appId, `${words[i % 5]} ${words[(i * 2) % 5]} idea ${i}`, `Also about ${words[(i * 3 + 1) % 5]} and ${words[(i + 2) % 5]} (${i % 7})`, i % 11 !== 0),
    );
    // Words the in-memory title check and FTS5's tokenizer must see alike.
    for (const [title, description] of [
      ["Naïve CAFÉ mode", "Straße export"],
      ["Export für Ärzte", "café au lait, naïve"],
      ["Mode-switch: dark/light", "Ｆｕｌｌ-width ＥＸＰＯＲＴ"],
    ] as const) {
      inputs.push(importedRequest(appId, title, description));
    }
    const rows = await createFeatureRequests(t.db.kysely, clock, "sqlite", appId, inputs);
    rows.forEach((row, i) => texts.set(row.id, { title: row.title, all: `${row.title} ${row.description}`, approved: inputs[i]!.approved }));
  });
  afterAll(() => t.cleanup());

  it("indexes words under 27-character app prefixes, the length the prefix indexes of migrations 0006 and 0007 assume", () => {
    expect(appPrefixes(appId).visible).toHaveLength(27);
    expect(appPrefixes(appId).hidden).toHaveLength(27);
  });

  const queries = ["idea", "dark", "dark mo", "sync cal", "1", "idea 4", "export dark", "nothing here", "cafe", "naive mode", "stra", "arzte", "export", "full"];

  it.each(queries)("answers %j alike whichever way it reads the index", async (q) => {
    const terms = searchTerms(q);
    for (const offset of [0, 3, 10, 17, 40, 100]) {
      const page = { offset, limit: 9 };
      const whole = await rankOnSqlite(t.db.kysely, { appId }, terms, page);
      const paged = await rankOnSqlite(t.db.kysely, { appId }, terms, page, 0);
      expect(paged, `offset ${offset}`).toEqual(whole);
      // A window smaller than the matches: pages inside its part of either tier come from it.
      const windowed = await rankOnSqlite(t.db.kysely, { appId }, terms, page, 20);
      expect(windowed, `offset ${offset}, window 20`).toEqual(whole);
      // Tiers too large to gather from their matches: walked in the `top` index's order instead.
      const walked = await rankOnSqlite(t.db.kysely, { appId }, terms, page, 0, 0);
      expect(walked, `offset ${offset}, tiers walked`).toEqual(whole);
    }
  });

  // On a large board SQLite walked every listed request, in the `top` index's order, to find a
  // tier's few matches (or none): a small tier's page is read from its matches, each by its id.
  it("reads a small tier of a large search from its matches, never walking the app's requests", async () => {
    for (const q of ["idea", "dark mo", "idea 4", "nothing here"]) {
      const whole = await rankOnSqlite(t.db.kysely, { appId }, searchTerms(q), { offset: 0, limit: 9 });
      let paged: unknown;
      const statements = await recordStatements(t.db, async () => {
        paged = await rankOnSqlite(t.db.kysely, { appId }, searchTerms(q), { offset: 0, limit: 9 }, 0);
      });
      expect(paged, q).toEqual(whole);
      const reads: string[] = [];
      for (const query of statements) {
        reads.push(...(await sqlitePlan(t.db.kysely, query)).filter((step) => /^(SCAN|SEARCH) (fr|feature_requests|ft|feature_request_top)\b/.test(step)));
      }
      // Each match looked up by its id, in the request's row or in its copy in the `top` order.
      if (q !== "nothing here") expect(reads, q).not.toEqual([]);
      for (const read of reads) expect(read, q).toMatch(/^SEARCH \w+ USING INDEX sqlite_autoindex_feature_request(s|_top)_1 \(id=\?\)/);
    }
  });

  it("ranks requests whose title holds every word before the others, and counts every match", async () => {
    const terms = ["mode", "export"];
    const holds = (text: string) => terms.every((term) => searchText(text).split(" ").some((word) => word.startsWith(term)));
    const expected = [...texts].filter(([, r]) => r.approved && holds(r.all));
    const { ids, total } = await rankOnSqlite(t.db.kysely, { appId }, terms, { offset: 0, limit: 200 });
    expect(total).toBe(expected.length);
    expect(new Set(ids)).toEqual(new Set(expected.map(([id]) => id)));
    const inTitle = ids.map((id) => holds(texts.get(id)!.title));
    const firstOther = inTitle.indexOf(false);
    // Both tiers are there, the title one first.
    expect(firstOther).toBeGreaterThan(0);
    expect(inTitle.slice(firstOther)).not.toContain(true);
  });
});
