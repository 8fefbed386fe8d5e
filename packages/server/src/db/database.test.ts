import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { FakeClock } from "../testing/fake-clock.js";
import { openTestDatabase, testDialects, type TestDatabase } from "../testing/test-database.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { migrateToLatest } from "./database.js";

describe("testDialects", () => {
  it("requires PostgreSQL when CI=true", () => {
    expect(() => testDialects({ CI: "true" })).toThrow(/TEST_DATABASE_URL/);
    expect(testDialects({ CI: "true", TEST_DATABASE_URL: "postgres://x" })).toEqual(["sqlite", "postgres"]);
    expect(testDialects({})).toEqual(["sqlite"]);
  });
});

describe.each(testDialects())("database on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t.cleanup());

  it("applies migrations once; a second run applies nothing", async () => {
    expect(await migrateToLatest(t.db, t.schema === undefined ? {} : { schema: t.schema })).toEqual([]);
  });

  it("rolls a failed command back whole", async () => {
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        const { workspace } = await createWorkspace(trx, clock, { name: "Half", slug: "half" }, null);
        await createApp(trx, clock, workspace.id, { name: "Half app" });
        throw new Error("crash in the middle");
      }),
    ).rejects.toThrow("crash in the middle");
    expect(await t.db.kysely.selectFrom("workspaces").select("id").where("slug", "=", "half").execute()).toEqual([]);
    expect(await t.db.kysely.selectFrom("apps").select("id").where("name", "=", "Half app").execute()).toEqual([]);
  });

  it("enforces foreign keys and cascades app deletion to columns", async () => {
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "FK", slug: "fk" }, null);
    const { row } = await createApp(t.db.kysely, clock, workspace.id, { name: "FK app" });
    await expect(
      t.db.kysely
        .insertInto("boardColumns")
        .values({ id: "col_x", appId: "app_missing", name: "x", slug: "x", position: 0, isVisible: 1, isSystem: 0, kind: "normal", color: null, createdAt: "", updatedAt: "" })
        .execute(),
    ).rejects.toThrow();
    await t.db.kysely.deleteFrom("apps").where("id", "=", row.id).execute();
    expect(await t.db.kysely.selectFrom("boardColumns").select("id").where("appId", "=", row.id).execute()).toEqual([]);
  });

  if (dialect === "sqlite") {
    it("runs SQLite in WAL mode with full synchronous commits", async () => {
      const journal = await sql<{ journalMode: string }>`pragma journal_mode`.execute(t.db.kysely);
      expect(journal.rows[0]?.journalMode).toBe("wal");
      const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(t.db.kysely);
      expect(sync.rows[0]?.synchronous).toBe(2);
    });
  }
});
