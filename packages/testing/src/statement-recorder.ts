import { CompiledQuery, type Kysely } from "kysely";
import type { Db } from "../../server/src/db/database.js";

/**
 * The statements `run` sends to `db`, as they were executed (SQL and parameters), prepared ones
 * (`preparedQuery`) included. `db` must be opened with `timeQueries`: Kysely's log reports every
 * execution, while a plugin sees a query only when it is built and compiled, which a prepared
 * query is once per process. Statements `db` runs meanwhile for others are recorded too.
 *
 * @example
 * ```ts
 * const t = await openTestDatabase(dialect, { timeQueries: true });
 * const statements = await recordStatements(t.db, () => listFeatureRequests(t.db.kysely, dialect, clock, query));
 * statements; // [{ sql, parameters }, …]
 * ```
 */
export async function recordStatements(db: Db, run: () => Promise<unknown>): Promise<CompiledQuery[]> {
  if (db.queries === undefined) throw new Error("open the database with timeQueries to record its statements");
  const statements: CompiledQuery[] = [];
  const stop = db.queries.listen((event) => statements.push(event.query));
  try {
    await run();
  } finally {
    stop();
  }
  return statements;
}

/**
 * SQLite's `EXPLAIN QUERY PLAN` of a recorded statement, with its own parameters: one line per
 * step (`SEARCH fr USING INDEX …`, `SCAN t0`, …).
 *
 * @example
 * ```ts
 * const [statement] = await recordStatements(t.db, () => work());
 * expect(await sqlitePlan(t.db.kysely, statement!)).not.toContain("SCAN fr");
 * ```
 */
export async function sqlitePlan<DB>(db: Kysely<DB>, statement: CompiledQuery): Promise<string[]> {
  const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]));
  return plan.rows.map((row) => row.detail);
}
