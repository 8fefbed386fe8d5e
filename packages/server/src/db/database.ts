import { sql, type Kysely } from "kysely";
import type { Checkpointer } from "./checkpointer.js";
import { openPostgres } from "./postgres-database.js";
import type { BatchedWork, SharedWork } from "./shared-work.js";
import { queryTimings, type QueryTimings } from "./query-timings.js";
import type { Database } from "./schema.js";
import { openSqlite } from "./sqlite-database.js";

/** Which SQL engine a database runs on. */
export type DialectName = "sqlite" | "postgres";

/** An open database: the Kysely handle plus what callers need to know about it. */
export interface Db {
  readonly kysely: Kysely<Database>;
  readonly dialect: DialectName;
  /**
   * Runs `work` in a transaction that concurrent callers share, with its commit (group commit,
   * each under its own savepoint); the promise settles only after the commit. SQLite runs one
   * such transaction at a time; PostgreSQL several (`POSTGRES_COMMIT_LANES`), work with the
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
  if (url.startsWith("sqlite:")) return { ...openSqlite(url.slice("sqlite:".length), log), dialect: "sqlite", ...timing };
  return { ...openPostgres(url, options.schema, log), dialect: "postgres", ...timing };
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
