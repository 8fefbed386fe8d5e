import type SQLite from "better-sqlite3";

/** How many distinct statements stay prepared (queries with `in (…)` lists vary in text). */
const DEFAULT_SIZE = 512;

/** Parameters as Kysely compiles them: one value per `?`. */
type Parameters = readonly unknown[];

/** A prepared statement of the cache, as the SQLite connection and the direct runner use it. */
export interface CachedStatement {
  readonly reader: boolean;
  /** True while an `iterate()` over it is under way. */
  readonly busy: boolean;
  /** Its rows keyed by the cache's `key`, or by their column names when `byName`. */
  all(parameters?: Parameters, byName?: boolean): Array<Record<string, unknown>>;
  iterate(parameters?: Parameters, byName?: boolean): IterableIterator<Record<string, unknown>>;
  run(parameters?: Parameters): SQLite.RunResult;
}

export interface StatementCacheOptions {
  size?: number;
  /** The key a result column gets in a row (its name by default). */
  key?: (column: string) => string;
}

/**
 * The better-sqlite3 handle as the SQLite connection (sqlite-connection.ts) sees it, with
 * prepared statements reused by their SQL text instead of being parsed and planned again on every
 * execution (Kysely prepares each query anew). Least recently used statements are dropped past
 * `size`. A statement still busy with an `iterate()` (a streamed query) is never handed out twice.
 *
 * Rows are built here: a statement that returns rows reads them as arrays and turns each into an
 * object through a function made for its columns, keyed by `key`. Objects better-sqlite3 builds
 * itself get their keys one at a time; they took twice as long to make and to serialise (a page of
 * 51 requests of 22 columns: 0.38 ms against 0.18 ms), and renaming their keys afterwards, as
 * Kysely's camel-case plugin does, took as long again.
 */
export function withStatementCache(database: SQLite.Database, options: StatementCacheOptions = {}): { close(): void; prepare(sql: string): CachedStatement } {
  const size = options.size ?? DEFAULT_SIZE;
  const key = options.key ?? ((column: string) => column);
  const statements = new Map<string, CachedStatement>();
  const schemaVersion = database.prepare("pragma schema_version").pluck();
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
      const statement = shaped(database.prepare(sql), sql, key, () => schemaVersion.get() as number);
      if (hit === undefined) {
        statements.set(sql, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
  };
}

/** A statement whose rows are built from the arrays SQLite returns. */
function shaped(statement: SQLite.Statement, sql: string, key: (column: string) => string, schemaVersion: () => number): CachedStatement {
  const run = (parameters: Parameters = []) => statement.run(parameters);
  if (!statement.reader) {
    const none = () => {
      throw new TypeError("this statement returns no rows");
    };
    return {
      reader: false,
      get busy() {
        return statement.busy;
      },
      all: none,
      iterate: none,
      run,
    };
  }
  statement.raw(true);
  // SQLite prepares a statement again when the schema changes, and a `*` then stands for the
  // columns as they are now (a migration run by another process): such statements look.
  const starred = /\*(?!\s*\))/.test(sql);
  let version = starred ? schemaVersion() : 0;
  let builders = buildersFor(statement, key);
  const current = (row: unknown[], byName: boolean) => {
    const now = starred ? schemaVersion() : 0;
    if (row.length !== builders.width || now !== version) {
      version = now;
      builders = buildersFor(statement, key);
    }
    return byName ? builders.byName() : builders.keyed();
  };
  return {
    reader: true,
    get busy() {
      return statement.busy;
    },
    all: (parameters = [], byName = false) => {
      const rows = statement.all(parameters) as unknown[][];
      if (rows.length === 0) return [];
      return rows.map(current(rows[0]!, byName));
    },
    iterate: function* (parameters = [], byName = false) {
      // One read transaction: the columns cannot change before the last row.
      let build: Build | undefined;
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield (build ??= current(row, byName))(row);
    },
    run,
  };
}

type Build = (row: unknown[]) => Record<string, unknown>;

/** The statement's row builders, each made when first asked for: most statements only ever use one. */
function buildersFor(statement: SQLite.Statement, key: (column: string) => string): { keyed(): Build; byName(): Build; width: number } {
  const names = statement.columns().map((c) => c.name);
  let keyed: Build | undefined;
  let byName: Build | undefined;
  return {
    keyed: () => (keyed ??= rowBuilder(names.map(key))),
    byName: () => (byName ??= rowBuilder(names)),
    width: names.length,
  };
}

/**
 * An object literal per row, so every row of a statement shares one shape (a later key of the
 * same name wins, as in better-sqlite3's own rows). `__proto__` in a literal would set the
 * prototype, so columns of that name are assigned one by one instead, as Kysely's plugin does.
 */
function rowBuilder(keys: string[]): Build {
  if (keys.includes("__proto__")) {
    return (row) => {
      const object: Record<string, unknown> = {};
      keys.forEach((k, i) => (object[k] = row[i]));
      return object;
    };
  }
  return new Function("row", `return {${keys.map((k, i) => `${JSON.stringify(k)}: row[${i}]`).join(", ")}};`) as Build;
}
