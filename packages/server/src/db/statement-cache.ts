import type SQLite from "better-sqlite3";

/** How many distinct statements stay prepared (queries with `in (…)` lists vary in text). */
const DEFAULT_SIZE = 512;

/**
 * The better-sqlite3 handle as Kysely's SQLite dialect sees it, with prepared statements reused
 * by their SQL text instead of being parsed and planned again on every execution (Kysely
 * prepares each query anew). Least recently used statements are dropped past `size`. A statement
 * still busy with an `iterate()` (a streamed query) is never handed out twice.
 */
export function withStatementCache(database: SQLite.Database, size = DEFAULT_SIZE): { close(): void; prepare(sql: string): SQLite.Statement } {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare: (sql: string) => {
      const hit = statements.get(sql);
      if (hit !== undefined && !hit.busy) {
        // Re-inserting keeps the map in least-recently-used order.
        statements.delete(sql);
        statements.set(sql, hit);
        return hit;
      }
      const statement = database.prepare(sql);
      if (hit === undefined) {
        statements.set(sql, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
  };
}
