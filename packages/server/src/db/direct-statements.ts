import type { Kysely, QueryResult } from "kysely";
import type { Database } from "./schema.js";
import type { CachedStatement } from "./statement-cache.js";

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

/**
 * Runs statements on the statement cache (whose rows are keyed as Kysely's camel-case plugin
 * keys them) as Kysely's SQLite driver would (affected rows for statements that return none),
 * without the executor's promise chain and connection hand-over: on the vote path those cost
 * more than SQLite's own work.
 */
export function sqliteDirectRunner(statements: { prepare(sql: string): CachedStatement }): DirectRunner {
  return (sql, parameters) => {
    const statement = statements.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) };
    const { changes } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes) };
  };
}
