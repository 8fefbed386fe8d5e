import type { Kysely } from "kysely";
import type { Database } from "./schema.js";

/**
 * Work that runs inside a transaction shared with other callers' work. It never opens a
 * transaction of its own: on PostgreSQL `trx` is the lane's connection inside its `begin`.
 */
export type SharedWork<T> = (trx: Kysely<Database>) => Promise<T>;

/** What one unit of work came to. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * A kind of work that a shared transaction runs for all its callers at once: one call with every
 * unit of the kind in the transaction, in the order they came, answering one outcome per input.
 * It must leave nothing of an input it reports as failed (each in a subtransaction of its own,
 * say); if the call itself throws, all of its units are rolled back and fail with that error.
 * On PostgreSQL this turns a round trip per unit into one per transaction.
 */
export interface Batch<I, T> {
  run(trx: Kysely<Database>, inputs: I[]): Promise<Array<Outcome<T>>>;
  /**
   * PostgreSQL: the same work as one statement outside any transaction, so that the statement is
   * its own transaction and commits as it answers (one round trip instead of `begin`, the call
   * and `commit`). Tried when a shared transaction would hold this batch's units and nothing
   * else. Answers undefined, having written nothing, when the work needs a transaction after all;
   * `run` then runs in one.
   */
  alone?(db: Kysely<Database>, inputs: I[]): Promise<Array<Outcome<T>> | undefined>;
}

/** One caller's unit of a {@link Batch}. */
export interface BatchedWork<I, T> {
  readonly batch: Batch<I, T>;
  readonly input: I;
}
