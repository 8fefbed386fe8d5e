import type { Kysely } from "kysely";
import { dropLoneSurrogates, truncateText } from "@tidings/protocol";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import type { JobRow } from "./job-claims.js";

/**
 * Delay before attempt `attempts + 1`: 30 s doubled per failure, at most an hour.
 *
 * @example
 * ```ts
 * retryDelayMs(1); // 30_000
 * retryDelayMs(3); // 120_000
 * ```
 */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
}

/**
 * Marks a claimed job done. Like {@link failJob} it only touches the claim it was given (same
 * attempt, still running): a runner that outlived its lease cannot undo another's work.
 */
export async function completeJob(db: Kysely<Database>, clock: Clock, job: JobRow): Promise<void> {
  const now = isoNow(clock);
  await db
    .updateTable("jobs")
    .set({ status: "done", lockedUntil: null, completedAt: now, updatedAt: now })
    .where("id", "=", job.id)
    .where("status", "=", "running")
    .where("attempts", "=", job.attempts)
    .execute();
}

/**
 * Thrown by a handler that sets its own retry schedule: the job is retried after `delayMs`
 * instead of {@link retryDelayMs} (or marked failed once its attempts are spent).
 *
 * @example
 * ```ts
 * throw new RetryLater("receiver answered 503", 300_000);
 * ```
 */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = "RetryLater";
  }
}

/** Records a failure: retried after `delayMs` ({@link retryDelayMs} by default), or `failed` once attempts are spent. */
export async function failJob(db: Kysely<Database>, clock: Clock, job: JobRow, error: string, delayMs = retryDelayMs(job.attempts)): Promise<void> {
  const now = clock.now();
  const spent = job.attempts >= job.maxAttempts;
  await db
    .updateTable("jobs")
    .set({
      status: spent ? "failed" : "pending",
      lockedUntil: null,
      // PostgreSQL text holds no NUL: an error quoting a peer's answer may carry one.
      lastError: truncateText(dropLoneSurrogates(error.replace(/\0/g, "")), 1000),
      nextAttemptAt: new Date(now.getTime() + delayMs).toISOString(),
      updatedAt: now.toISOString(),
    })
    .where("id", "=", job.id)
    .where("status", "=", "running")
    .where("attempts", "=", job.attempts)
    .execute();
}
