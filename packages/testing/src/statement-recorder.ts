import { CompiledQuery, sql, type Kysely } from "kysely";
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

/**
 * How many of eight executions of a recorded PostgreSQL statement, prepared on one connection as
 * the server keeps its statements, ran a generic plan (one made for any values and kept) rather
 * than a plan made for the values at hand. PostgreSQL plans the first five for their values, then
 * keeps the generic plan if it costs no more than those did; a statement whose generic plan looks
 * dearer is planned again on every execution. The values are written out in the EXECUTE, as SQL.
 *
 * @example
 * ```ts
 * const [statement] = await recordStatements(t.database.db, () => readPage());
 * expect(await genericPlans(t.database.db.kysely, statement!)).toBeGreaterThanOrEqual(3);
 * ```
 */
export async function genericPlans<DB>(db: Kysely<DB>, statement: CompiledQuery): Promise<number> {
  const literal = (value: unknown): string => {
    if (Array.isArray(value)) return `array[${value.map(literal).join(", ")}]`;
    if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    if (value === null) return "null";
    throw new Error(`genericPlans: no SQL literal for ${typeof value}`);
  };
  return db.connection().execute(async (conn) => {
    await conn.executeQuery(CompiledQuery.raw(`prepare generic_plans_check as ${statement.sql}`));
    try {
      const values = statement.parameters.map(literal).join(", ");
      for (let i = 0; i < 8; i++) await conn.executeQuery(CompiledQuery.raw(`execute generic_plans_check${values === "" ? "" : `(${values})`}`));
      const row = await conn.executeQuery<{ generic: string }>(CompiledQuery.raw("select generic_plans as generic from pg_prepared_statements where name = 'generic_plans_check'"));
      return Number(row.rows[0]!.generic);
    } finally {
      await conn.executeQuery(CompiledQuery.raw("deallocate generic_plans_check"));
    }
  });
}

/**
 * What PostgreSQL's planner takes `table` to hold (its statistics: -1 or 0 before any `ANALYZE`)
 * beside the rows it holds.
 *
 * @example
 * ```ts
 * expect(await plannerRowCount(t.db.kysely, "feature_requests")).toEqual({ estimated: 13, stored: 13 });
 * ```
 */
export async function plannerRowCount<DB>(db: Kysely<DB>, table: string): Promise<{ estimated: number; stored: number }> {
  // The name quoted by Kysely in the count, and by PostgreSQL (`quote_ident`) for the catalog.
  const result = await sql<{ estimated: number; stored: number }>`select c.reltuples::int as estimated, (select count(*)::int from ${sql.id(table)}) as stored
    from pg_class c where c.oid = quote_ident(${table})::regclass`.execute(db);
  return result.rows[0]!;
}
