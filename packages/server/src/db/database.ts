import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { BACKSTOP_CHECKPOINT_PAGES, startCheckpointer, type Checkpointer } from "./checkpointer.js";
import { sqliteDirectRunner } from "./direct-statements.js";
import { isDeadlock } from "./constraint-violations.js";
import { createGroupCommit } from "./group-commit.js";
import type { BatchedWork, SharedWork } from "./shared-work.js";
import { useNamedStatements } from "./named-statements.js";
import { listenOn } from "./postgres-listen.js";
import { queryTimings, type QueryTimings } from "./query-timings.js";
import { withStatementCache } from "./statement-cache.js";
import { walSync } from "./wal-sync.js";
import type { Database } from "./schema.js";

/** Which SQL engine a database runs on. */
export type DialectName = "sqlite" | "postgres";

/** An open database: the Kysely handle plus what callers need to know about it. */
export interface Db {
  readonly kysely: Kysely<Database>;
  readonly dialect: DialectName;
  /**
   * Runs `work` in a transaction that concurrent callers share, with its commit (group commit,
   * each under its own savepoint); the promise settles only after the commit. SQLite runs one
   * such transaction at a time; PostgreSQL several ({@link POSTGRES_COMMIT_LANES}), work with the
   * same `key` (what it locks, such as a request's id) always in the same one. Units of a
   * {@link BatchedWork}'s batch in one transaction run in one call.
   */
  sharedTransaction<T, I = never>(work: SharedWork<T> | BatchedWork<I, T>, key?: string): Promise<T>;
  /** Databases opened with `timeQueries` only: where each query's duration is reported. */
  readonly queries?: QueryTimings;
  /** SQLite files only: the thread that checkpoints the WAL. */
  readonly checkpointer?: Checkpointer;
  /**
   * PostgreSQL only: LISTENs on `channel` suffixed with `:<current schema>` (instances of one
   * deployment share it, test schemas do not) over a connection of its own. `onNotify` runs on
   * each notification; `onLost` once if the connection fails, after which the listener is dead.
   */
  listen?(channel: string, onNotify: () => void, onLost: (error: Error) => void): Promise<{ close(): Promise<void> }>;
  /** Closes every connection. */
  destroy(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL only: the schema to use (tests isolate themselves this way). */
  schema?: string;
  /**
   * Time every query through Kysely's `log` hook and report it to {@link Db.queries}. Off by
   * default: the hook adds a few promise turns to every query, which the hot paths should not
   * pay for unless metrics are collected. @default false
   */
  timeQueries?: boolean;
}

const INT8_OID = 20;

/**
 * Shared transactions PostgreSQL runs at once (each holds a pooled connection while it runs).
 * While one waits for its commit to be flushed, the others fill up. Since the votes of a
 * transaction are applied in one round trip (`apply_votes`), fewer lanes make larger batches:
 * four gave 1.2–1.3× the votes of eight over HTTP with 100 clients (docs/postgresql.md).
 */
export const POSTGRES_COMMIT_LANES = 4;

/** Connections of the PostgreSQL pool: one per commit lane, and six for reads. */
const POSTGRES_POOL_SIZE = POSTGRES_COMMIT_LANES + 6;

/**
 * Opens `sqlite:<file>` (WAL checkpointed from a worker thread, synchronous=FULL, foreign keys on)
 * or a `postgres://` URL.
 *
 * @example
 * ```ts
 * const db = openDatabase("sqlite:./data/tidings.db");
 * await migrateToLatest(db);
 * ```
 */
export function openDatabase(url: string, options: OpenOptions = {}): Db {
  const timed = options.timeQueries === true ? queryTimings() : undefined;
  const timing = timed === undefined ? {} : { queries: timed.timings };
  const log = timed === undefined ? {} : { log: timed.log };
  if (url.startsWith("sqlite:")) {
    const file = url.slice("sqlite:".length);
    if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma("journal_mode = WAL");
    // FULL makes every acknowledged commit survive a power loss, not just a process crash.
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    const onDisk = file !== ":memory:" && file !== "";
    // A thread of its own copies the WAL into the file (see checkpointer.ts); this connection
    // checkpoints only as a backstop, or entirely again if that thread fails.
    if (onDisk) sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    const checkpointer = onDisk
      ? startCheckpointer(file, () => {
          if (sqlite.open) sqlite.pragma("wal_autocheckpoint = 1000");
        })
      : undefined;
    const statements = withStatementCache(sqlite);
    const kysely = new Kysely<Database>({
      dialect: new SqliteDialect({ database: statements }),
      plugins: [new CamelCasePlugin()],
      ...log,
    });
    const wal = onDisk ? walSync(`${file}-wal`) : undefined;
    return {
      kysely,
      dialect: "sqlite",
      ...timing,
      sharedTransaction: createGroupCommit(kysely, { direct: sqliteDirectRunner(statements), ...(wal === undefined ? {} : { sync: wal.sync }) }),
      ...(checkpointer === undefined ? {} : { checkpointer }),
      destroy: async () => {
        // The checkpoint thread's connection first: the last connection to close folds the WAL in.
        await checkpointer?.close();
        await kysely.destroy();
        wal?.close();
      },
    };
  }
  const searchPath = options.schema === undefined ? undefined : `-c search_path=${options.schema}`;
  const pool = new pg.Pool({
    connectionString: url,
    max: POSTGRES_POOL_SIZE,
    ...(searchPath === undefined ? {} : { options: searchPath }),
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text")) as never,
    },
  });
  pool.on("connect", useNamedStatements);
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
    ...log,
  });
  return {
    kysely,
    dialect: "postgres",
    ...timing,
    sharedTransaction: createGroupCommit(kysely, { lanes: POSTGRES_COMMIT_LANES, retryable: isDeadlock }),
    listen: (channel, onNotify, onLost) => listenOn({ connectionString: url, ...(searchPath === undefined ? {} : { options: searchPath }) }, channel, onNotify, onLost),
    destroy: () => kysely.destroy(),
  };
}

/** Answers true when the database accepts a trivial query. */
export async function ping(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db.kysely);
    return true;
  } catch {
    return false;
  }
}
