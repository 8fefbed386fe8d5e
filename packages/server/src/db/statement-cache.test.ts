import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { withStatementCache } from "./statement-cache.js";

describe("statement cache", () => {
  let handle: ReturnType<typeof withStatementCache> | undefined;
  afterEach(() => handle?.close());

  it("hands out the same prepared statement for the same SQL", () => {
    handle = withStatementCache(new SQLite(":memory:"));
    const first = handle.prepare("select ? as v");
    expect(handle.prepare("select ? as v")).toBe(first);
    expect(handle.prepare("select ? as v").all([7])).toEqual([{ v: 7 }]);
  });

  it("drops the least recently used statement past its size", () => {
    handle = withStatementCache(new SQLite(":memory:"), { size: 2 });
    const a = handle.prepare("select 1");
    const b = handle.prepare("select 2");
    expect(handle.prepare("select 1")).toBe(a); // a is now the most recent
    handle.prepare("select 3"); // evicts b
    expect(handle.prepare("select 1")).toBe(a);
    expect(handle.prepare("select 2")).not.toBe(b);
  });

  it("never hands out a statement that is still iterating", () => {
    handle = withStatementCache(new SQLite(":memory:"));
    handle.prepare("create table t (v integer)").run();
    for (const v of [1, 2, 3]) handle.prepare("insert into t (v) values (?)").run([v]);
    const outer = handle.prepare("select v from t order by v");
    const seen: unknown[] = [];
    for (const row of outer.iterate()) {
      const inner = handle.prepare("select v from t order by v");
      expect(inner).not.toBe(outer);
      seen.push(row.v, inner.all().length);
    }
    expect(seen).toEqual([1, 3, 2, 3, 3, 3]);
  });

  it("keys rows by its key function, or by column name when asked, with what better-sqlite3 returns as values", () => {
    handle = withStatementCache(new SQLite(":memory:"), { key: (c) => c.replace(/_([a-z])/g, (_, x: string) => x.toUpperCase()) });
    handle.prepare("create table t (app_id text, vote_count integer, icon blob, note text)").run();
    handle.prepare("insert into t values (?, ?, ?, ?), (?, ?, ?, ?)").run(["a", 3, Buffer.from("png"), null, "b", 4, null, "x"]);
    const select = handle.prepare("select app_id, vote_count, icon, note, vote_count * 2 as double_count from t order by app_id");
    expect(select.all()).toEqual([
      { appId: "a", voteCount: 3, icon: Buffer.from("png"), note: null, doubleCount: 6 },
      { appId: "b", voteCount: 4, icon: null, note: "x", doubleCount: 8 },
    ]);
    expect(select.all([], true)).toEqual([
      { app_id: "a", vote_count: 3, icon: Buffer.from("png"), note: null, double_count: 6 },
      { app_id: "b", vote_count: 4, icon: null, note: "x", double_count: 8 },
    ]);
    expect([...select.iterate([], false)].map((r) => r.appId)).toEqual(["a", "b"]);
    expect(handle.prepare("select 1 as v where 0").all()).toEqual([]);
  });

  it("lets a later column of the same name win, and keeps a column named __proto__ off the prototype chain as an assignment would", () => {
    handle = withStatementCache(new SQLite(":memory:"));
    expect(handle.prepare("select 1 as v, 2 as v").all()).toEqual([{ v: 2 }]);
    const [row] = handle.prepare("select 5 as __proto__, 6 as w").all();
    expect(row).toEqual({ w: 6 });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });

  it("follows a `*` to the table's columns as they are after another connection changed the schema", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "statement-cache-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "t.db");
    handle = withStatementCache(new SQLite(file));
    handle.prepare("create table t (a integer, b integer)").run();
    handle.prepare("insert into t values (1, 2)").run();
    const star = handle.prepare("select * from t");
    expect(star.all()).toEqual([{ a: 1, b: 2 }]);
    // Same number of columns, other names: only the schema's version tells them apart.
    const other = new SQLite(file);
    other.exec("alter table t rename column b to c");
    other.close();
    expect(handle.prepare("select * from t")).toBe(star);
    expect(star.all()).toEqual([{ a: 1, c: 2 }]);
    const more = new SQLite(file);
    more.exec("alter table t add column d integer default 9");
    more.close();
    expect(star.all()).toEqual([{ a: 1, c: 2, d: 9 }]);
  });
});
