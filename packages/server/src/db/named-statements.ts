import { PostgresAdapter, sql, type Compilable, type Kysely, type RawBuilder, type SqlBool } from "kysely";
import type pg from "pg";
import type { Database } from "./schema.js";

/**
 * Server-side prepared statements on PostgreSQL for the hot paths' fixed SQL (`preparedQuery`).
 * `pg` sends a query without a name as an unnamed statement, which the server parses and plans
 * anew each time; for the small indexed statements of a personalised page, a comment thread or a
 * vote batch, planning took longer than running (0.2–1 ms against 0.05 ms). A named statement is
 * parsed once per connection and, after a few runs, executed with a cached plan.
 *
 * Only SQL registered here is named, so the text of every named statement is fixed and their
 * number bounded by the code. A statement that selects `*` is never named: a prepared statement
 * keeps the shape of its result, and PostgreSQL refuses to run it once a column added by a
 * migration (of a newer instance, during a rolling upgrade) would change that shape. Such a
 * statement is parsed on each run, as Kysely's own are. A pooler in transaction mode that does not follow protocol-level
 * prepared statements (PgBouncer before 1.21, or without `max_prepared_statements`) cannot carry
 * them: see docs/postgresql.md.
 */
const names = new Map<string, string>();

/** Most statements named; SQL met past it runs unnamed, a bound on what each connection keeps. */
const MAX_NAMED = 1000;

/** A `*` in a select list (`select *`, `select "apps".*, …`): the result's columns follow the schema. */
const SELECTS_STAR = /(?:\bselect\s+(?:distinct\s+)?|,\s*)(?:"\w+"\.)?\*(?=[\s,]|$)/i;

/** Marks `sql` as a statement to prepare on each connection that runs it, unless it selects `*`. */
export function nameStatement(sql: string): void {
  if (names.has(sql) || names.size >= MAX_NAMED || SELECTS_STAR.test(sql)) return;
  names.set(sql, `tidings_${names.size + 1}`);
}

/**
 * Runs a query Kysely built, on PostgreSQL as a named statement. Only for SQL whose text does
 * not vary with the values: a list goes in as one array parameter (`= any($1::text[])`), never
 * as `in ($1, $2, …)`.
 */
export async function executeNamed<O>(db: Kysely<Database>, query: Compilable<O>): Promise<O[]> {
  const compiled = query.compile();
  if (db.getExecutor().adapter instanceof PostgresAdapter) nameStatement(compiled.sql);
  return (await db.executeQuery(compiled)).rows;
}

type QueryFunction = (...args: unknown[]) => unknown;

/**
 * Makes a pooled client send registered SQL as named statements (call it from the pool's
 * `connect` event). The client keeps its own list of what it has prepared, so each statement is
 * parsed once per connection.
 */
export function useNamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as QueryFunction;
  (client as unknown as { query: QueryFunction }).query = (...args: unknown[]) => {
    const [text, values] = args;
    const name = typeof text === "string" && Array.isArray(values) && args.length === 2 ? names.get(text) : undefined;
    return name === undefined ? query(...args) : query({ name, text, values });
  };
}

/**
 * `column in (ids)`: on PostgreSQL as one array parameter, so the statement's text is the same
 * for any number of ids and it can be prepared once (see `executeNamed`).
 */
export function idIn(db: Kysely<Database>, column: string, ids: string[]): RawBuilder<SqlBool> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return sql<SqlBool>`${sql.ref(column)} = any(${sql.val(ids)}::text[])`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(ids)})`;
}
