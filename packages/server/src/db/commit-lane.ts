import { CompiledQuery, PostgresAdapter, type Kysely } from "kysely";
import { withDirectStatements, type DirectRunner } from "./direct-statements.js";
import type { Database } from "./schema.js";
import type { Batch, BatchedWork, Outcome, SharedWork } from "./shared-work.js";

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
// Two statements in one simple query: valid through `pg` without parameters, not through better-sqlite3.
const RELEASE_THEN_SAVEPOINT = CompiledQuery.raw("release unit; savepoint unit");
const BEGIN_THEN_SAVEPOINT = CompiledQuery.raw("begin; savepoint unit");
const RELEASE_THEN_COMMIT = CompiledQuery.raw("release unit; commit");
const ROLLBACK = CompiledQuery.raw("rollback");

interface Pending {
  work: SharedWork<unknown> | BatchedWork<unknown, unknown>;
  attempts: number;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/** One queue of units and the shared transactions that run them, one at a time. */
export function createLane(kysely: Kysely<Database>, options: GroupCommitOptions): <T, I>(work: SharedWork<T> | BatchedWork<I, T>) => Promise<T> {
  const durable = options.sync;
  const direct = options.direct;
  const retryable = options.retryable ?? (() => false);
  const combined = kysely.getExecutor().adapter instanceof PostgresAdapter;
  let queue: Pending[] = [];
  let running = false;

  /** Runs the units in order on `trx`, each step under a savepoint (on PostgreSQL the first is taken with `begin`). */
  const runUnits = async (trx: Kysely<Database>, batch: Pending[], run: (query: CompiledQuery) => unknown) => {
    const outcomes: Array<Outcome<unknown>> = [];
    const steps = stepsOf(batch);
    for (const [i, step] of steps.entries()) {
      // On PostgreSQL the savepoint goes with the statement before it (`begin`, the previous
      // step's `release`) and the last release with the commit: one round trip less each.
      if (!combined) await run(SAVEPOINT);
      else if (i > 0) await run(RELEASE_THEN_SAVEPOINT);
      try {
        if (step.batch === undefined) {
          outcomes[step.units[0]!] = { ok: true, value: await (batch[step.units[0]!]!.work as SharedWork<unknown>)(trx) };
        } else {
          const inputs = step.units.map((u) => (batch[u]!.work as BatchedWork<unknown, unknown>).input);
          const results = await step.batch.run(trx, inputs);
          if (results.length !== inputs.length) throw new Error(`a batch answered ${results.length} outcomes for ${inputs.length} units`);
          step.units.forEach((u, j) => (outcomes[u] = results[j]!));
        }
      } catch (error) {
        await run(ROLLBACK_TO_SAVEPOINT);
        for (const u of step.units) outcomes[u] = { ok: false, error };
      }
      if (!combined) await run(RELEASE_SAVEPOINT);
    }
    return outcomes;
  };

  const runBatch = (batch: Pending[]) =>
    // One connection for the pragma and the transaction: no other transaction may commit while
    // synchronous is relaxed, or it would be acknowledged without a sync.
    kysely.connection().execute(async (conn) => {
      if (combined) {
        const alone = await runAlone(conn, batch);
        if (alone !== undefined) return alone;
        // PostgreSQL: `begin` and `commit` sent with the first and last savepoint statements.
        await conn.executeQuery(BEGIN_THEN_SAVEPOINT);
        try {
          const outcomes = await runUnits(conn, batch, (query) => conn.executeQuery(query));
          await conn.executeQuery(RELEASE_THEN_COMMIT);
          return outcomes;
        } catch (error) {
          await conn.executeQuery(ROLLBACK).catch(() => undefined);
          throw error;
        }
      }
      if (durable !== undefined) await conn.executeQuery(RELAXED_SYNC);
      try {
        return await conn.transaction().execute(async (trx) => {
          const run = (query: CompiledQuery) => (direct === undefined ? trx.executeQuery(query) : direct(query.sql, query.parameters));
          const units = () => runUnits(trx, batch, run);
          return direct === undefined ? units() : withDirectStatements(trx, direct, units);
        });
      } finally {
        if (durable !== undefined) await conn.executeQuery(FULL_SYNC);
      }
    });

  const flush = async () => {
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    let committed: Promise<Array<Outcome<unknown>>>;
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

  return <T, I>(work: SharedWork<T> | BatchedWork<I, T>) =>
    new Promise<T>((resolve, reject) =>
      submit({ work: work as SharedWork<unknown> | BatchedWork<unknown, unknown>, attempts: 1, resolve: resolve as (value: unknown) => void, reject }),
    );
}

/**
 * PostgreSQL: when every unit of a transaction belongs to one batch that can run alone (see
 * `Batch.alone`), that statement and its outcomes, in the units' order; undefined when the
 * transaction must run. A statement that fails has written nothing, so its error is every unit's.
 */
async function runAlone(conn: Kysely<Database>, units: Pending[]): Promise<Array<Outcome<unknown>> | undefined> {
  const first = units[0]!.work;
  if (typeof first === "function" || first.batch.alone === undefined) return undefined;
  const inputs: unknown[] = [];
  for (const unit of units) {
    if (typeof unit.work === "function" || unit.work.batch !== first.batch) return undefined;
    inputs.push(unit.work.input);
  }
  let outcomes: Array<Outcome<unknown>> | undefined;
  try {
    outcomes = await first.batch.alone(conn, inputs);
  } catch (error) {
    return units.map(() => ({ ok: false, error }));
  }
  if (outcomes !== undefined && outcomes.length !== inputs.length) throw new Error(`a batch answered ${outcomes.length} outcomes for ${inputs.length} units`);
  return outcomes;
}

/** What a transaction runs under one savepoint: one unit of work, or every unit of one batch. */
interface Step {
  batch: Batch<unknown, unknown> | undefined;
  /** Indexes of the units in the transaction's list. */
  units: number[];
}

/** The units in order, the units of each batch together where the first of them came. */
function stepsOf(units: Pending[]): Step[] {
  const steps: Step[] = [];
  const batches = new Map<Batch<unknown, unknown>, Step>();
  units.forEach((unit, i) => {
    if (typeof unit.work === "function") {
      steps.push({ batch: undefined, units: [i] });
      return;
    }
    const step = batches.get(unit.work.batch);
    if (step !== undefined) step.units.push(i);
    else {
      const first = { batch: unit.work.batch, units: [i] };
      batches.set(unit.work.batch, first);
      steps.push(first);
    }
  });
  return steps;
}
