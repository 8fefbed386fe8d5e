import type { Kysely } from "kysely";
import { createLane, type GroupCommitOptions } from "./commit-lane.js";
import type { Database } from "./schema.js";
import type { BatchedWork, SharedWork } from "./shared-work.js";

/**
 * Group commit: units of work submitted in the same turn of the event loop run one after another
 * in one transaction, each under its own savepoint, and share one commit. A unit that throws
 * rolls back its own changes only. Every promise settles after the commit is durable, so nothing
 * is acknowledged that a power loss could take back; if the commit or the sync fails, every unit
 * of that transaction is rejected. SQLite (one writer connection) runs one lane; PostgreSQL runs
 * several, each on a pooled connection, and a unit goes to the lane of its key (see
 * {@link GroupCommitOptions.lanes}).
 */
export function createGroupCommit(
  kysely: Kysely<Database>,
  options: GroupCommitOptions = {},
): <T, I = never>(work: SharedWork<T> | BatchedWork<I, T>, key?: string) => Promise<T> {
  const lanes = Array.from({ length: Math.max(1, options.lanes ?? 1) }, () => createLane(kysely, options));
  let next = 0;
  return <T, I = never>(work: SharedWork<T> | BatchedWork<I, T>, key?: string) => {
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
