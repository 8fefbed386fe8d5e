import { CompiledQuery, PostgresAdapter, type Kysely } from "kysely";
import { withDirectStatements, type DirectRunner } from "./direct-statements.js";
import type { Database } from "./schema.js";

/** Work that runs inside a transaction shared with other callers' work. */
export type SharedWork<T> = (trx: Kysely<Database>) => Promise<T>;

/** The most units one shared transaction takes; the rest wait for the next one. */
const MAX_BATCH = 256;

export interface GroupCommitOptions {
  /**
   * Makes every transaction committed so far durable (an fdatasync of the SQLite WAL file) and
   * settles when it is. When given, shared transactions commit without SQLite's own sync and
   * their callers wait for this instead, which runs off the event loop; each transaction starts
   * its own sync right after its commit (waiting for one already in flight to finish first cost
   * more latency than the extra syncs cost the disk). Without it, commits are synchronous as
   * configured on the connection.
   */
  sync?: () => Promise<void>;
  /**
   * Runs statements directly on the connection the shared transaction holds: its savepoints, and
   * the units' prepared queries (see `withDirectStatements`).
   */
  direct?: DirectRunner;
  /**
   * How many shared transactions may run at once, each on a connection of its own (PostgreSQL:
   * while one waits for its commit to be flushed, others fill up). Units with the same key always
   * share a lane, so they never wait for each other's locks across transactions. Default 1.
   */
  lanes?: number;
  /**
   * Errors after which a unit is run again in a later transaction instead of failing (a deadlock
   * with another transaction, which PostgreSQL breaks by failing one of its statements), up to
   * {@link MAX_ATTEMPTS} times in all.
   */
  retryable?: (error: unknown) => boolean;
}

/** Runs of one unit at most, the first included, when its errors are retryable. */
const MAX_ATTEMPTS = 3;

const RELAXED_SYNC = CompiledQuery.raw("pragma synchronous = NORMAL");
const FULL_SYNC = CompiledQuery.raw("pragma synchronous = FULL");
const SAVEPOINT = CompiledQuery.raw("savepoint unit");
const ROLLBACK_TO_SAVEPOINT = CompiledQuery.raw("rollback to unit");
const RELEASE_SAVEPOINT = CompiledQuery.raw("release unit");
/** Two statements in one simple query: valid through `pg` without parameters, not through better-sqlite3. */
const RELEASE_THEN_SAVEPOINT = CompiledQuery.raw("release unit; savepoint unit");

interface Pending {
  work: SharedWork<unknown>;
  attempts: number;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit: units of work submitted in the same turn of the event loop run one after another
 * in one transaction, each under its own savepoint, and share one commit. A unit that throws
 * rolls back its own changes only. Every promise settles after the commit is durable, so nothing
 * is acknowledged that a power loss could take back; if the commit or the sync fails, every unit
 * of that transaction is rejected. SQLite (one writer connection) runs one lane; PostgreSQL runs
 * several, each on a pooled connection, and a unit goes to the lane of its key (see
 * {@link GroupCommitOptions.lanes}).
 */
export function createGroupCommit(kysely: Kysely<Database>, options: GroupCommitOptions = {}): <T>(work: SharedWork<T>, key?: string) => Promise<T> {
  const lanes = Array.from({ length: Math.max(1, options.lanes ?? 1) }, () => createLane(kysely, options));
  let next = 0;
  return <T>(work: SharedWork<T>, key?: string) => {
    const lane = key === undefined ? next++ % lanes.length : hash(key) % lanes.length;
    return lanes[lane]!(work);
  };
}

/** FNV-1a of a string: spreads keys over the lanes. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** One queue of units and the shared transactions that run them, one at a time. */
function createLane(kysely: Kysely<Database>, options: GroupCommitOptions): <T>(work: SharedWork<T>) => Promise<T> {
  const durable = options.sync;
  const direct = options.direct;
  const retryable = options.retryable ?? (() => false);
  const combined = kysely.getExecutor().adapter instanceof PostgresAdapter;
  let queue: Pending[] = [];
  let running = false;

  const runBatch = (batch: Pending[]) =>
    // One connection for the pragma and the transaction: no other transaction may commit while
    // synchronous is relaxed, or it would be acknowledged without a sync.
    kysely.connection().execute(async (conn) => {
      if (durable !== undefined) await conn.executeQuery(RELAXED_SYNC);
      try {
        return await conn.transaction().execute(async (trx) => {
          const run = (query: CompiledQuery) => (direct === undefined ? trx.executeQuery(query) : direct(query.sql, query.parameters));
          const units = async () => {
            const outcomes: Outcome[] = [];
            for (const [i, unit] of batch.entries()) {
              // On PostgreSQL one unit's release and the next one's savepoint go in one round trip.
              await run(i > 0 && combined ? RELEASE_THEN_SAVEPOINT : SAVEPOINT);
              try {
                outcomes.push({ ok: true, value: await unit.work(trx) });
              } catch (error) {
                await run(ROLLBACK_TO_SAVEPOINT);
                outcomes.push({ ok: false, error });
              }
              if (!combined || i === batch.length - 1) await run(RELEASE_SAVEPOINT);
            }
            return outcomes;
          };
          return direct === undefined ? units() : withDirectStatements(trx, direct, units);
        });
      } finally {
        if (durable !== undefined) await conn.executeQuery(FULL_SYNC);
      }
    });

  const flush = async () => {
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    let committed: Promise<Outcome[]>;
    try {
      const outcomes = await runBatch(batch);
      committed = durable === undefined ? Promise.resolve(outcomes) : durable().then(() => outcomes);
    } catch (error) {
      committed = Promise.reject(error);
    }
    // The next batch may run while this one's sync is in flight.
    if (queue.length > 0) setImmediate(() => void flush());
    else running = false;
    committed.then(
      (outcomes) =>
        batch.forEach((unit, i) => {
          const outcome = outcomes[i]!;
          if (outcome.ok) unit.resolve(outcome.value);
          else if (unit.attempts < MAX_ATTEMPTS && retryable(outcome.error)) submit({ ...unit, attempts: unit.attempts + 1 });
          else unit.reject(outcome.error);
        }),
      (error: unknown) => {
        for (const unit of batch) unit.reject(error);
      },
    );
  };

  const submit = (unit: Pending) => {
    queue.push(unit);
    if (!running) {
      running = true;
      // After the poll phase: every request already readable joins this transaction.
      setImmediate(() => void flush());
    }
  };

  return <T>(work: SharedWork<T>) =>
    new Promise<T>((resolve, reject) => submit({ work: work as SharedWork<unknown>, attempts: 1, resolve: resolve as (value: unknown) => void, reject }));
}
