import type SQLite from "better-sqlite3";
import { CamelCasePlugin, type Kysely, type QueryResult } from "kysely";
import type { Database } from "./schema.js";

/** Runs compiled SQL at once on a connection its caller already holds. */
export type DirectRunner = (sql: string, parameters: readonly unknown[]) => QueryResult<unknown>;

const runners = new WeakMap<Kysely<Database>, DirectRunner>();

/**
 * While `work` runs, prepared queries given `db` (a transaction whose connection the caller holds,
 * so nothing else can use it meanwhile) run through `runner` instead of Kysely's executor.
 */
export async function withDirectStatements<T>(db: Kysely<Database>, runner: DirectRunner, work: () => Promise<T>): Promise<T> {
  runners.set(db, runner);
  try {
    return await work();
  } finally {
    runners.delete(db);
  }
}

/** The direct runner registered for `db`, if any. */
export function directRunner(db: Kysely<Database>): DirectRunner | undefined {
  return runners.get(db);
}

/** Kysely's own row mapping, as the database's CamelCasePlugin (default options) applies it. */
class CamelCaseRows extends CamelCasePlugin {
  map(row: Record<string, unknown>): Record<string, unknown> {
    return this.mapRow(row);
  }
}

/**
 * Runs statements on a better-sqlite3 handle as Kysely's SQLite driver and camel-case plugin
 * would (rows keyed in camelCase; affected rows for statements that return none), without the
 * executor's promise chain, connection hand-over and result transforms: on the vote path those
 * cost more than SQLite's own work.
 */
export function sqliteDirectRunner(statements: { prepare(sql: string): SQLite.Statement }): DirectRunner {
  const rows = new CamelCaseRows();
  return (sql, parameters) => {
    const statement = statements.prepare(sql);
    if (statement.reader) {
      return { rows: (statement.all(parameters) as Array<Record<string, unknown>>).map((row) => rows.map(row)) };
    }
    const { changes } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes) };
  };
}
