import type { FastifyBaseLogger } from "fastify";
import { PostgresAdapter, sql, type Kysely } from "kysely";
import type { Timers } from "../clock.js";
import type { Db } from "../db/database.js";
import type { Database } from "../db/schema.js";

/** The PostgreSQL channel of queued work (suffixed with the schema, see `Db.listen`). */
export const JOBS_CHANNEL = "tidings_jobs";

/**
 * Inside the transaction that queued jobs: on PostgreSQL, tells every instance's runner that work
 * is waiting. The notification is delivered when the transaction commits, and not at all when it
 * rolls back. Nothing on SQLite, where one process holds the database and kicks its own runner.
 *
 * @example
 * ```ts
 * await db.transaction().execute(async (trx) => {
 *   await trx.insertInto("jobs").values(row).execute();
 *   await announceJobs(trx);
 * });
 * ```
 */
export async function announceJobs(trx: Kysely<Database>): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_notify(${`${JOBS_CHANNEL}:`}::text || current_schema(), '')`.execute(trx);
}

/** A LISTEN that reconnects: see {@link listenForJobs}. */
export interface JobListener {
  /** Settles once the first attempt to listen is over (listening, or failed and retrying). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Calls `wake` whenever any instance queues work (PostgreSQL `LISTEN`), and once each time the
 * connection is established again, for work queued while it was down. A lost connection is opened
 * again after `retryMs`; the runner's own wake-ups cover the gap. Undefined on SQLite.
 *
 * @example
 * ```ts
 * const listener = listenForJobs(db, () => runner.kick(), log, systemTimers, 5_000);
 * await listener?.close();
 * ```
 */
export function listenForJobs(db: Db, wake: () => void, log: FastifyBaseLogger, timers: Timers, retryMs: number): JobListener | undefined {
  const listen = db.listen;
  if (listen === undefined) return undefined;
  let closed = false;
  let current: { close(): Promise<void> } | undefined;
  let retry: unknown;
  const connect = async (again: boolean): Promise<void> => {
    try {
      const opened = await listen(JOBS_CHANNEL, wake, (error) => {
        current = undefined;
        log.warn({ err: error }, "jobs: lost the LISTEN connection; listening again shortly");
        later();
      });
      if (closed) return void (await opened.close());
      current = opened;
      // Work queued while no one listened is found now rather than on the next poll.
      if (again) wake();
    } catch (error) {
      log.warn({ err: error }, "jobs: could not LISTEN for queued work; trying again shortly");
      later();
    }
  };
  const later = () => {
    if (!closed) retry = timers.setTimeout(() => void connect(true), retryMs);
  };
  const ready = connect(false);
  return {
    ready,
    close: async () => {
      closed = true;
      timers.clearTimeout(retry);
      await ready;
      await current?.close().catch(() => undefined);
      current = undefined;
    },
  };
}
