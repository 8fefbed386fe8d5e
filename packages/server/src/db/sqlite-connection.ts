import type SQLite from "better-sqlite3";
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  SelectQueryNode,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type LogEvent,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import type { Database } from "./schema.js";
import { withStatementCache } from "./statement-cache.js";

type Statements = ReturnType<typeof withStatementCache>;

/**
 * Kysely over `sqlite` through the statement cache, its rows keyed in camelCase as the schema's
 * types name them; `statements` runs SQL on the same handle (see direct-statements.ts).
 */
export function sqliteKysely(sqlite: SQLite.Database, log: { log?: (event: LogEvent) => void } = {}): { kysely: Kysely<Database>; statements: Statements } {
  const camelCase = new CamelCaseRows();
  const statements = withStatementCache(sqlite, { key: (column) => camelCase.key(column) });
  const kysely = new Kysely<Database>({ dialect: new CachedStatementsDialect(statements, camelCase), plugins: [camelCase], ...log });
  return { kysely, statements };
}

/**
 * Kysely's camel-case plugin, whose renaming of result rows happens as the statement cache builds
 * them (see statement-cache.ts) instead of in a second object per row. The plugin notes each query
 * it sees; the connection keys those queries' rows in camelCase, and every other query's (those of
 * `withoutPlugins()`, which migrations use) by column name, as before. SQLite's values are never
 * objects, so the plugin would have renamed nothing else.
 */
export class CamelCaseRows extends CamelCasePlugin {
  readonly #seen = new WeakSet<QueryId>();

  /** The key the plugin gives `column`. */
  key(column: string): string {
    return this.camelCase(column);
  }

  /** Whether the rows of `queryId` are the plugin's to key. */
  keys(queryId: QueryId): boolean {
    return this.#seen.has(queryId);
  }

  override transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.#seen.add(args.queryId);
    return super.transformQuery(args);
  }

  override transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return this.#seen.has(args.queryId) ? Promise.resolve(args.result) : super.transformResult(args);
  }
}

/**
 * Kysely's SQLite dialect (its one connection behind a lock, its transactions and savepoints) over
 * the statement cache, with rows keyed as `rows` says.
 */
export class CachedStatementsDialect extends SqliteDialect {
  constructor(
    private readonly statements: Statements,
    private readonly rows: CamelCaseRows,
  ) {
    super({ database: statements });
  }

  override createDriver(): Driver {
    return new CachedStatementsDriver(this.statements, this.rows);
  }
}

const BEGIN_IMMEDIATE = CompiledQuery.raw("begin immediate");

class CachedStatementsDriver extends SqliteDriver {
  readonly #connection: DatabaseConnection;

  constructor(statements: Statements, rows: CamelCaseRows) {
    super({ database: statements });
    this.#connection = {
      executeQuery: <R>(query: CompiledQuery) => {
        const statement = statements.prepare(query.sql);
        if (statement.reader) return Promise.resolve({ rows: statement.all(query.parameters, !rows.keys(query.queryId)) as R[] });
        const { changes, lastInsertRowid } = statement.run(query.parameters);
        return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
      },
      streamQuery: async function* <R>(query: CompiledQuery) {
        if (!SelectQueryNode.is(query.query)) throw new Error("Sqlite driver only supports streaming of select queries");
        for (const row of statements.prepare(query.sql).iterate(query.parameters, !rows.keys(query.queryId))) yield { rows: [row as R] };
      },
    };
  }

  /**
   * Takes the file's write lock as the transaction begins (`begin immediate`), where Kysely's
   * `begin` would take it at the first write. Another process writing the same file (`tidings mcp`
   * over stdio, a CLI command) can commit between a deferred transaction's first read and its
   * first write, and that write then fails at once with SQLITE_BUSY_SNAPSHOT: `busy_timeout` does
   * not wait for it, since waiting could not make the transaction's snapshot current again. Begun
   * immediate, the transaction waits (up to `busy_timeout`) for the other writer before it reads.
   * In one process nothing changes: Kysely runs this connection's transactions one at a time.
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(BEGIN_IMMEDIATE);
  }

  /** The lock as Kysely's driver takes it, then the connection over the statement cache. */
  override async acquireConnection(): Promise<DatabaseConnection> {
    await super.acquireConnection();
    return this.#connection;
  }
}
