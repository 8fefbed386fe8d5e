import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createApp } from "../apps/apps.js";
import { MemoryCache } from "../cache/memory-cache.js";
import { appTag } from "../context.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { boardAudience, cacheBoardsByAppKey } from "./access.js";
import { createBoard, listBoards } from "./boards.js";

describe.each(testDialects())("an app's boards read by its key on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  const apps: Array<{ id: string; appKey: string }> = [];
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "Boards", slug: "boards-by-key" }, null);
    for (const name of ["First", "Second"]) {
      const { row } = await createApp(t.db.kysely, clock, workspace.id, { name });
      await createBoard(t.db.kysely, clock, row.id, { name: `${name} bugs` });
      await createBoard(t.db.kysely, clock, row.id, { name: `${name} lab`, visibility: "private" });
      apps.push({ id: row.id, appKey: row.appKey });
    }
  });
  afterAll(() => t.cleanup());

  it("caches the boards of that app alone, in order, where the audience reads them", async () => {
    const cache = new MemoryCache(clock);
    await cacheBoardsByAppKey(t.db.kysely, apps[1]!.appKey, cache);
    const expected = await listBoards(t.db.kysely, apps[1]!.id);
    expect(expected.map((b) => b.name)).toEqual(expect.arrayContaining(["Second bugs", "Second lab"]));
    expect(new Set(expected.map((b) => b.appId))).toEqual(new Set([apps[1]!.id]));
    expect(await cache.get(`boards:${apps[1]!.id}`)).toEqual(expected);
    expect(await cache.get(`boards:${apps[0]!.id}`)).toBeUndefined();
    // The audience is built from the cached boards: the database is not asked again.
    const audience = await boardAudience(undefined as never, apps[1]!.id, { token: null, identified: false }, cache);
    expect(audience.boards.map((b) => b.name)).toEqual(expected.filter((b) => b.visibility === "public").map((b) => b.name));
    // A console write to the app drops them.
    await cache.invalidateTag(appTag(apps[1]!.id));
    expect(await cache.get(`boards:${apps[1]!.id}`)).toBeUndefined();
  });

  it("stores nothing for a key no app has", async () => {
    const cache = new MemoryCache(clock);
    await cacheBoardsByAppKey(t.db.kysely, "app_nobody_has_this_key", cache);
    expect(cache.size).toBe(0);
  });
});
