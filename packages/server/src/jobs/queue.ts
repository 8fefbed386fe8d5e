import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { newId } from "../ids.js";
import { announceJobs } from "./wakeups.js";

/** Attempts before a job is marked failed. */
export const DEFAULT_MAX_ATTEMPTS = 6;

/** A job to add; `dedupeKey` makes enqueueing idempotent. */
export interface NewJob {
  kind: string;
  refId?: string | null;
  dedupeKey: string;
  payload: unknown;
  maxAttempts?: number;
  /** When the job becomes due (a digest waits for its hour to end). @default now */
  runAt?: Date;
}

/**
 * Adds jobs inside the caller's transaction; a key already queued (in any state) is skipped.
 * Answers how many were added. On PostgreSQL the runners of every instance hear of them at commit
 * ({@link announceJobs}).
 */
export async function enqueueJobs(trx: Kysely<Database>, clock: Clock, jobs: readonly NewJob[]): Promise<number> {
  let added = 0;
  const now = isoNow(clock);
  for (const job of jobs) {
    const result = await trx
      .insertInto("jobs")
      .values({
        id: newId("job", clock.now()),
        kind: job.kind,
        refId: job.refId ?? null,
        dedupeKey: job.dedupeKey,
        payload: JSON.stringify(job.payload),
        status: "pending",
        attempts: 0,
        maxAttempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        nextAttemptAt: job.runAt === undefined ? now : job.runAt.toISOString(),
        lockedUntil: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
        completedAt: null,
      })
      .onConflict((oc) => oc.column("dedupeKey").doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  if (added > 0) await announceJobs(trx);
  return added;
}
