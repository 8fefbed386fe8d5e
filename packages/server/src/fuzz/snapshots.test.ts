import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshotter, changedTables, type Snapshot } from "@tidings/testing/fuzz/invariants";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { FakeClock } from "@tidings/testing/fake-clock";
import { createWorkspace } from "../workspaces/workspaces.js";

// The fuzz test's proof that a refused request wrote nothing is two of these digests being equal:
// each one must see any row added, changed or removed, in every table but the columns left out,
// also once its statement is prepared (PostgreSQL keeps it per connection after the first runs).
describe.each(testDialects())("database digests on %s", (dialect) => {
  let t: TestDatabase;
  let take: () => Promise<Snapshot>;
  const clock = new FakeClock();
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    take = await snapshotter(t.db, undefined, new Set(["workspaces.updated_at"]));
  });
  afterAll(() => t.cleanup());

  it("sees a row added, changed and removed, and not a change to a column left out", async () => {
    const db = t.db.kysely;
    let before = await take();
    // Taken again and again, as the fuzz test does, so a prepared statement serves the rest.
    for (let i = 0; i < 8; i++) expect(changedTables(before, await take())).toEqual([]);
    await db.updateTable("workspaces").set({ updatedAt: "2030-01-01T00:00:00.000Z" }).execute();
    expect(changedTables(before, await take())).toEqual([]);
    await db.updateTable("workspaces").set({ name: "Renamed" }).execute();
    let after = await take();
    expect(changedTables(before, after)).toEqual(["workspaces"]);
    before = after;
    await createWorkspace(db, clock, { name: "Second", slug: "second" }, null);
    after = await take();
    expect(changedTables(before, after)).toEqual(["workspaces"]);
    before = after;
    await sql`delete from workspaces where slug = 'second'`.execute(db);
    expect(changedTables(before, await take())).toEqual(["workspaces"]);
  });
});
