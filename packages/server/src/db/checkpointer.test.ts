import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { startCheckpointer } from "./checkpointer.js";
import { openDatabase } from "./database.js";

/** An interval the tests never reach: every checkpoint below is one they asked for. */
const NEVER = 3_600_000;

describe("startCheckpointer", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-ckpt-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("copies committed WAL frames into the database file from its own thread", async () => {
    const file = path.join(dir, "copy.db");
    const db = new SQLite(file);
    db.pragma("journal_mode = WAL");
    db.pragma("wal_autocheckpoint = 0");
    const checkpointer = startCheckpointer(file, (error) => expect.fail(error.message), NEVER);
    try {
      db.exec("create table notes (body text)");
      const insert = db.prepare("insert into notes (body) values (?)");
      db.transaction(() => {
        for (let i = 0; i < 500; i++) insert.run("x".repeat(1000));
      })();
      const before = fs.statSync(file).size;
      const result = await checkpointer.checkpointNow();
      expect(result.walFrames).toBeGreaterThan(100);
      expect(result.checkpointed).toBe(result.walFrames);
      // The rows now live in the database file itself, not only in the WAL.
      expect(fs.statSync(file).size).toBeGreaterThan(before + 400_000);
      const copy = new SQLite(file, { readonly: true });
      expect(copy.prepare("select count(*) as n from notes").get()).toEqual({ n: 500 });
      copy.close();
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  it("reports a thread that cannot open the database, and refuses later checkpoints", async () => {
    const failures: Error[] = [];
    const checkpointer = startCheckpointer(path.join(dir, "missing.db"), (error) => failures.push(error), NEVER);
    await expect(checkpointer.checkpointNow()).rejects.toThrow(/opening .*missing\.db: SQLITE_CANTOPEN/);
    expect(failures.map((e) => e.message)).toEqual([expect.stringMatching(/SQLITE_CANTOPEN/)]);
    await expect(checkpointer.checkpointNow()).rejects.toThrow(/SQLITE_CANTOPEN/);
    await checkpointer.close();
  });
});

describe("a SQLite file opened by openDatabase", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-ckpt-db-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("leaves checkpoints to the thread up to the backstop size and folds the WAL in on close", async () => {
    const file = path.join(dir, "app.db");
    const db = openDatabase(`sqlite:${file}`);
    const auto = await sql<{ walAutocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.kysely);
    expect(auto.rows[0]?.walAutocheckpoint).toBe(10_000);
    await sql`create table notes (body text)`.execute(db.kysely);
    await sql`insert into notes (body) values (${"kept"})`.execute(db.kysely);
    expect(db.checkpointer).toBeDefined();
    const result = await db.checkpointer!.checkpointNow();
    expect(result.checkpointed).toBe(result.walFrames);
    await db.destroy();
    // The checkpoint thread closed first, so the last connection removed the WAL.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const reopened = new SQLite(file, { readonly: true });
    expect(reopened.prepare("select body from notes").all()).toEqual([{ body: "kept" }]);
    reopened.close();
  });

  it("has no checkpoint thread in memory", async () => {
    const db = openDatabase("sqlite::memory:");
    expect(db.checkpointer).toBeUndefined();
    await db.destroy();
  });
});
