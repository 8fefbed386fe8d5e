import { PostgresAdapter, sql, type CompiledQuery, type Compilable, type DialectAdapter, type Kysely, type QueryResult, type RawBuilder, type SqlBool } from "kysely";
import { directRunner } from "./direct-statements.js";
import { nameStatement } from "./named-statements.js";
import type { Database } from "./schema.js";

const MARKER = "\u0000tidings-param:";

/** Stand-ins for a prepared query's parameters while it is built, one per name. */
export type ParamRefs<P> = { readonly [K in keyof P]: P[K] };

/** A query built and compiled once per dialect, then run with new parameter values. */
export interface PreparedQuery<P, R> {
  execute(db: Kysely<Database>, params: P): Promise<QueryResult<R>>;
  /** The rows of {@link execute}. */
  rows(db: Kysely<Database>, params: P): Promise<R[]>;
  /** The first row of {@link execute}, or undefined. */
  first(db: Kysely<Database>, params: P): Promise<R | undefined>;
}

interface Compiled<P> {
  query: CompiledQuery;
  /** SQLite binds no arrays: its lists go as JSON text (see {@link inList}). */
  listsAsJson: boolean;
  /** Per compiled parameter: the name of the caller's parameter, or the constant built in. */
  slots: Array<{ name: keyof P } | { value: unknown }>;
}

/**
 * A query for the hot paths: Kysely builds, transforms and compiles a query on every execution,
 * which costs about ten times what SQLite spends running a small indexed statement. This builds
 * it once per dialect, with each parameter standing in as `p.name`, and afterwards only binds new
 * values to the compiled SQL (which the SQLite handle keeps prepared, and PostgreSQL as a named
 * statement on each connection). Only plain values may be
 * parameters, and lists of ids read through {@link inList}: a list written out as `in (…)`
 * changes the SQL with its length and is no parameter.
 *
 * @example
 * ```ts
 * const byToken = preparedQuery<{ appId: string; hash: string }, { id: string }>((db, p) =>
 *   db.selectFrom("endUsers").select("id").where("appId", "=", p.appId).where("tokenHash", "=", p.hash),
 * );
 * const user = await byToken.first(trx, { appId, hash });
 * ```
 */
export function preparedQuery<P extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, p: ParamRefs<P>) => Compilable<R>,
): PreparedQuery<P, R> {
  // Keyed by the dialect's adapter, which a database and its transactions share.
  const byDialect = new WeakMap<DialectAdapter, Compiled<P>>();
  const refs = new Proxy({}, { get: (_, name) => `${MARKER}${String(name)}` }) as ParamRefs<P>;

  const compile = (db: Kysely<Database>): Compiled<P> => {
    const dialect = db.getExecutor().adapter;
    let compiled = byDialect.get(dialect);
    if (compiled === undefined) {
      const query = build(db, refs).compile();
      const slots = query.parameters.map((value) =>
        typeof value === "string" && value.startsWith(MARKER) ? { name: value.slice(MARKER.length) as keyof P } : { value },
      );
      // PostgreSQL: a named statement on each connection, parsed and planned once (unless it
      // selects `*`, see named-statements.ts).
      if (dialect instanceof PostgresAdapter) nameStatement(query.sql);
      byDialect.set(dialect, (compiled = { query, slots, listsAsJson: !(dialect instanceof PostgresAdapter) }));
    }
    return compiled;
  };

  const execute = async (db: Kysely<Database>, params: P): Promise<QueryResult<R>> => {
    const { query, slots, listsAsJson } = compile(db);
    const parameters = slots.map((slot) => {
      const value = "name" in slot ? params[slot.name] : slot.value;
      return listsAsJson && Array.isArray(value) ? JSON.stringify(value) : value;
    });
    // Inside a shared transaction on SQLite: straight on the connection it holds.
    const direct = directRunner(db);
    if (direct !== undefined) return direct(query.sql, parameters) as QueryResult<R>;
    return db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>);
  };

  return {
    execute,
    rows: async (db, params) => (await execute(db, params)).rows,
    first: async (db, params) => (await execute(db, params)).rows[0],
  };
}

/**
 * `column` is one of the ids of a prepared query's list parameter (`p.ids`, a `string[]`), in SQL
 * whose text is the same for any number of ids: on PostgreSQL one array parameter, on SQLite the
 * list as JSON text read by `json_each` (which {@link preparedQuery} passes it as).
 *
 * @example
 * ```ts
 * const tagsOf = preparedQuery<{ ids: string[] }, { tagId: string }>((db, p) =>
 *   db.selectFrom("featureRequestTags").select("tagId").where(inList(db, "featureRequestId", p.ids)),
 * );
 * ```
 */
export function inList(db: Kysely<Database>, column: string, ids: readonly string[]): RawBuilder<SqlBool> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return sql<SqlBool>`${sql.ref(column)} = any(${ids}::text[])`;
  return sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${ids}))`;
}
