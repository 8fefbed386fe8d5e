import { CompiledQuery, type Kysely } from "kysely";
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
}

const RELAXED_SYNC = CompiledQuery.raw("pragma synchronous = NORMAL");
const FULL_SYNC = CompiledQuery.raw("pragma synchronous = FULL");
const SAVEPOINT = CompiledQuery.raw("savepoint unit");
const ROLLBACK_TO_SAVEPOINT = CompiledQuery.raw("rollback to unit");
const RELEASE_SAVEPOINT = CompiledQuery.raw("release unit");

interface Pending {
  work: SharedWork<unknown>;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit for a database with one writer connection (SQLite): units of work submitted in
 * the same turn of the event loop run one after another in one transaction, each under its own
 * savepoint, and share one commit. A unit that throws rolls back its own changes only. Every
 * promise settles after the commit is durable, so nothing is acknowledged that a power loss could
 * take back; if the commit or the sync fails, every unit of that transaction is rejected.
 */
export function createGroupCommit(kysely: Kysely<Database>, options: GroupCommitOptions = {}): <T>(work: SharedWork<T>) => Promise<T> {
  const durable = options.sync;
  const direct = options.direct;
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
            for (const unit of batch) {
              await run(SAVEPOINT);
              try {
                outcomes.push({ ok: true, value: await unit.work(trx) });
              } catch (error) {
                await run(ROLLBACK_TO_SAVEPOINT);
                outcomes.push({ ok: false, error });
              }
              await run(RELEASE_SAVEPOINT);
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
          else unit.reject(outcome.error);
        }),
      (error: unknown) => {
        for (const unit of batch) unit.reject(error);
      },
    );
  };

  return <T>(work: SharedWork<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work: work as SharedWork<unknown>, resolve: resolve as (value: unknown) => void, reject });
      if (!running) {
        running = true;
        // After the poll phase: every request already readable joins this transaction.
        setImmediate(() => void flush());
      }
    });
}
