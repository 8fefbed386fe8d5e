import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createWorkspace } from "../workspaces/workspaces.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";
import { listFeatureRequests } from "./listing.js";
import { rankOnSqlite } from "./sqlite-search.js";
import { recordStatements } from "@tidings/testing/statement-recorder";
import { addComment } from "./comments.js";
import { createTag } from "../tags/tags.js";
import { bulkTag } from "../tags/request-tags.js";

// Equally relevant matches (the same tier) come in one order on both engines: most votes first,
// then newest. SQLite used to put the most recently indexed first and PostgreSQL the most voted.
describe.each(testDialects())("the order of equally relevant search matches on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Ordered" })).row.id;
    // Oldest first; titles holding "sync" are the first tier, descriptions holding it the second.
    const board: [name: string, title: string, description: string, votes: number][] = [
      ["old-popular", "Sync calendar", "Both ways", 7],
      ["old-second-tier", "Offline mode", "Then sync later", 9],
      ["tied-older", "Sync contacts", "From the phone", 5],
      ["tied-newer", "Sync photos", "Full size", 5],
      ["new-second-tier", "Widgets", "With sync status", 0],
      ["newest-unvoted", "Sync settings", "Across devices", 0],
    ];
    for (const [name, title, description, votes] of board) {
      clock.advance(60_000);
      const [row] = await createFeatureRequests(t.db.kysely, clock, dialect, appId, [importedRequest(appId, title, description)]);
      await t.db.kysely.updateTable("featureRequests").set({ voteCount: votes }).where("id", "=", row!.id).execute();
      ids.set(row!.id, name);
    }
  });
  afterAll(() => t.cleanup());

  it("ranks title matches, then the others, each by votes and then newest, whatever the sort asked", async () => {
    for (const sort of ["newest", "top"] as const) {
      const page = await listFeatureRequests(t.db.kysely, dialect, clock, {
        appId,
        viewerEndUserId: null,
        limit: 50,
        offset: 0,
        cursor: undefined,
        versionId: undefined,
        q: "sync",
        sort,
      });
      expect(page.requests.map((r) => ids.get(r.id)), sort).toEqual(["old-popular", "tied-newer", "tied-older", "newest-unvoted", "old-second-tier", "new-second-tier"]);
      expect(page.total).toBe(6);
    }
  });

  it.skipIf(dialect !== "sqlite")("pages a large result in SQL in the same order as a small one in memory", async () => {
    for (const offset of [0, 1, 3, 4, 5]) {
      const small = await rankOnSqlite(t.db.kysely, { appId }, ["sync"], { offset, limit: 2 });
      expect(await rankOnSqlite(t.db.kysely, { appId }, ["sync"], { offset, limit: 2 }, 0), `offset ${offset}`).toEqual(small);
    }
  });
});

// A page reads what it shows: the tags of an app that has public tags (a cold app's first page
// read them for every row); its requests' recent commenters are on their rows (migration 0052).
describe.each(testDialects())("what a page reads of comments and tags on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  const id: Record<"commented" | "plain" | "tagged", string> = { commented: "", plain: "", tagged: "" };
  const query = { viewerEndUserId: null, limit: 50, offset: 0, cursor: undefined, versionId: undefined, q: undefined, sort: "newest" } as const;

  beforeAll(async () => {
    t = await openTestDatabase(dialect, { timeQueries: true });
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Reads" })).row.id;
    for (const name of ["commented", "plain", "tagged"] as const) {
      clock.advance(60_000);
      id[name] = (await createFeatureRequests(t.db.kysely, clock, dialect, appId, [importedRequest(appId, `Request ${name}`, "")]))[0]!.id;
    }
    await t.db.kysely.transaction().execute((trx) =>
      addComment(trx, clock, { featureRequestId: id.commented, body: "Yes please", authorName: "Ada", authorEmail: null, endUserId: null, teamUserId: null, isTeam: false, parentId: null }),
    );
  });
  afterAll(() => t.cleanup());

  const page = async () => {
    let out: Awaited<ReturnType<typeof listFeatureRequests>> | undefined;
    const statements = await recordStatements(t.db, async () => (out = await listFeatureRequests(t.db.kysely, dialect, clock, { ...query, appId })));
    const shown = new Map(out!.requests.map((r) => [r.id, { commenters: r.recentCommenters.map((c) => c.authorName), tags: r.tags.map((tag) => tag.slug) }]));
    return { statements, shown };
  };

  it("reads no comment, and no request's tags while the app has no public tag", async () => {
    const { statements, shown } = await page();
    expect(statements.filter((s) => s.sql.includes("feature_request_tags"))).toEqual([]);
    expect(statements.filter((s) => s.sql.includes("feature_request_comments"))).toEqual([]);
    expect(shown.get(id.commented)).toEqual({ commenters: ["Ada"], tags: [] });
    expect(shown.get(id.plain)).toEqual({ commenters: [], tags: [] });
  });

  it("shows a public tag once the app has one, and not a team-only one", async () => {
    const [pub, team] = await t.db.kysely.transaction().execute(async (trx) => [
      await createTag(trx, clock, appId, { name: "iOS", visibility: "public" }),
      await createTag(trx, clock, appId, { name: "Churn risk", visibility: "team" }),
    ]);
    await t.db.kysely.transaction().execute((trx) => bulkTag(trx, clock, appId, { featureRequestIds: [id.tagged], add: [pub!.id, team!.id] }));
    const { statements, shown } = await page();
    expect(statements.filter((s) => s.sql.includes("feature_request_tags"))).toHaveLength(1);
    expect(shown.get(id.tagged)).toEqual({ commenters: [], tags: [pub!.slug] });
    expect(shown.get(id.commented)).toEqual({ commenters: ["Ada"], tags: [] });
  });
});
