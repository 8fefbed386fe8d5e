import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { openTestDatabase, type TestDatabase } from "@tidings/testing/test-database";

describe("a SQLite database", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase("sqlite");
  });
  afterAll(() => t.cleanup());

  it("runs SQLite in WAL mode with full synchronous commits", async () => {
    const journal = await sql<{ journalMode: string }>`pragma journal_mode`.execute(t.db.kysely);
    expect(journal.rows[0]?.journalMode).toBe("wal");
    const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(t.db.kysely);
    expect(sync.rows[0]?.synchronous).toBe(2);
  });
});
