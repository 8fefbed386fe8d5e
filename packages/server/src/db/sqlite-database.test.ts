import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type Kysely } from "kysely";
import { openTestDatabase, type TestDatabase } from "@tidings/testing/test-database";
import { openSqlite } from "./sqlite-database.js";

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

/** The built module (`npm test` builds before it tests), for a second process on the same file. */
const BUILT = new URL("../../dist/db/sqlite-database.js", import.meta.url).href;

/**
 * Runs `rounds` transactions on `db`, each reading the counter and then writing it plus one, with
 * the event loop let go between the two as a handler's awaits let it go.
 */
async function increment(db: Kysely<Counter>, rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await db.transaction().execute(async (trx) => {
      const { n } = await trx.selectFrom("counter").select("n").where("id", "=", 1).executeTakeFirstOrThrow();
      await new Promise((resolve) => setImmediate(resolve));
      await trx.updateTable("counter").set({ n: n + 1 }).where("id", "=", 1).execute();
    });
  }
}

interface Counter {
  counter: { id: number; n: number };
}

describe("a SQLite file written by two processes", () => {
  it("keeps every read-then-write transaction of both, where another process commits between one's read and its write", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-two-writers-"));
    const file = path.join(dir, "tidings.db");
    const db = openSqlite(file, {});
    try {
      const kysely = db.kysely as unknown as Kysely<Counter>;
      await sql`create table counter (id integer primary key, n integer not null)`.execute(kysely);
      await sql`insert into counter (id, n) values (1, 0)`.execute(kysely);
      const rounds = 60;
      // The other process: the same module on the same file, as `tidings mcp` over stdio opens it.
      const script = `
        import { openSqlite } from ${JSON.stringify(BUILT)};
        const db = openSqlite(${JSON.stringify(file)}, {});
        const increment = ${increment.toString()};
        console.log("ready");
        try { await increment(db.kysely, ${rounds}); } finally { await db.destroy(); }
      `;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
        void exited.then(() => reject(new Error(`the other process ended before it was ready: ${stderr}`)));
      });
      const here = increment(kysely, rounds).then(
        () => undefined,
        (error: unknown) => error,
      );
      const [code, error] = await Promise.all([exited, here]);
      expect({ code, stderr: stderr.split("\n").filter((line) => /error/i.test(line)).join("\n"), error: String(error ?? "") }).toEqual({ code: 0, stderr: "", error: "" });
      const { n } = await kysely.selectFrom("counter").select("n").executeTakeFirstOrThrow();
      expect(n).toBe(2 * rounds);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
