import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { withStatementCache } from "./statement-cache.js";

describe("statement cache", () => {
  let handle: ReturnType<typeof withStatementCache> | undefined;
  afterEach(() => handle?.close());

  it("hands out the same prepared statement for the same SQL", () => {
    handle = withStatementCache(new SQLite(":memory:"));
    const first = handle.prepare("select ? as v");
    expect(handle.prepare("select ? as v")).toBe(first);
    expect(handle.prepare("select ? as v").get(7)).toEqual({ v: 7 });
  });

  it("drops the least recently used statement past its size", () => {
    handle = withStatementCache(new SQLite(":memory:"), 2);
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
    for (const v of [1, 2, 3]) handle.prepare("insert into t (v) values (?)").run(v);
    const outer = handle.prepare("select v from t order by v");
    const seen: number[] = [];
    for (const row of outer.iterate() as IterableIterator<{ v: number }>) {
      const inner = handle.prepare("select v from t order by v");
      expect(inner).not.toBe(outer);
      seen.push(row.v, (inner.all() as Array<{ v: number }>).length);
    }
    expect(seen).toEqual([1, 3, 2, 3, 3, 3]);
  });
});
