import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { FakeClock } from "@tidings/testing/fake-clock";
import { genericPlans, recordStatements } from "@tidings/testing/statement-recorder";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createApp } from "../apps/apps.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";
import { listFeatureRequests, readKeyedFirstPage } from "./listing.js";

/**
 * The first pages every visitor starts from are read by prepared statements (first-page.ts). On
 * PostgreSQL a statement whose LIMIT was a parameter was planned again on every execution: for an
 * unknown LIMIT the planner costs a generic plan as if a tenth of the board were read, so every
 * plan for the values at hand looked cheaper, and each first page paid its planning (about 0.35 ms
 * against 0.07 ms to run on a board of 10k requests) on top of its run.
 */
describe.runIf(testDialects().includes("postgres"))("a first page's statements on postgres", () => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  let appKey: string;
  let boardId: string;

  beforeAll(async () => {
    t = await openTestDatabase("postgres", { timeQueries: true });
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    const app = (await createApp(t.db.kysely, clock, workspace.id, { name: "Busy board" })).row;
    appId = app.id;
    appKey = app.appKey;
    const rows = await createFeatureRequests(
      t.db.kysely,
      clock,
      "postgres",
      appId,
      Array.from({ length: 3000 }, (_, i) => importedRequest(appId, `Request ${i}`, "")),
    );
    boardId = rows[0]!.boardId;
    await sql`update feature_requests set vote_count = (hashtext(id) & 1023) where app_id = ${appId}`.execute(t.db.kysely);
    await sql`analyze`.execute(t.db.kysely);
  });
  afterAll(() => t.cleanup());

  const base = { appId: "", viewerEndUserId: null, limit: 50, offset: 0, cursor: undefined, versionId: undefined, q: undefined } as const;

  it.each([
    ["newest", undefined],
    ["top", undefined],
    ["newest", "board"],
    ["top", "board"],
  ] as const)("keeps one plan for the %s page (%s)", async (sort, scope) => {
    let shown = 0;
    const statements = await recordStatements(t.db, async () => {
      const page = await listFeatureRequests(t.db.kysely, "postgres", clock, { ...base, appId, sort, ...(scope === undefined ? {} : { boardIds: [boardId] }) });
      shown = page.requests.length;
    });
    expect(shown).toBe(50);
    const rows = statements.find((s) => s.sql.includes("\"fr\".\"title\""));
    expect(rows, statements.map((s) => s.sql).join("\n")).toBeDefined();
    expect(await genericPlans(t.db.kysely, rows!)).toBeGreaterThanOrEqual(3);
  });

  it.each(["newest", "top"] as const)("keeps one plan for a cold app's %s page read by its key", async (sort) => {
    let shown = 0;
    const statements = await recordStatements(t.db, async () => {
      shown = (await readKeyedFirstPage(t.db.kysely, appKey, sort, 50)).rows.length;
    });
    expect(shown).toBe(51);
    expect(statements).toHaveLength(1);
    expect(await genericPlans(t.db.kysely, statements[0]!)).toBeGreaterThanOrEqual(3);
  });

  it("lists pages of any size, past the sizes whose LIMIT is written in", async () => {
    const sizes = Array.from({ length: 12 }, (_, i) => i + 1).concat([200]);
    for (const limit of sizes) {
      const newest = await listFeatureRequests(t.db.kysely, "postgres", clock, { ...base, appId, sort: "newest", limit });
      const top = await listFeatureRequests(t.db.kysely, "postgres", clock, { ...base, appId, sort: "top", limit });
      const keyed = await readKeyedFirstPage(t.db.kysely, appKey, "top", limit);
      expect([newest.requests.length, top.requests.length, keyed.rows.length, newest.hasMore]).toEqual([limit, limit, limit + 1, true]);
      expect(top.requests.map((r) => r.voteCount)).toEqual(top.requests.map((r) => r.voteCount).sort((a, b) => b - a));
      expect(keyed.rows.slice(0, limit).map((r) => r.id)).toEqual(top.requests.map((r) => r.id));
    }
  });
});
