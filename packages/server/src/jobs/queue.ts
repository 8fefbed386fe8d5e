import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database, JobsTable } from "../db/schema.js";
import { newId } from "../ids.js";
import { announceJobs } from "./wakeups.js";
import { dropLoneSurrogates, truncateText } from "@tidings/protocol";

/** How long a claimed job is reserved by default (`TIDINGS_JOB_LEASE_SECONDS`); a runner that died mid-job frees it after this. */
export const JOB_LEASE_MS = 5 * 60_000;
/** Attempts before a job is marked failed. */
export const DEFAULT_MAX_ATTEMPTS = 6;

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

export type JobRow = Pick<JobsTable, "id" | "kind" | "refId" | "payload" | "attempts" | "maxAttempts">;

/** A due job as read, before it is claimed. */
export type DueJob = JobRow & Pick<JobsTable, "status" | "lockedUntil">;

/**
 * When the next job falls due: the earliest pending job's time, or the end of a running job's
 * lease (its runner may have died). Undefined when nothing is queued.
 *
 * @example
 * ```ts
 * await nextDueAt(db); // 2026-01-05T10:00:05.000Z: a webhook's first retry
 * ```
 */
export async function nextDueAt(db: Kysely<Database>): Promise<Date | undefined> {
  const [pending, running] = await Promise.all([
    db.selectFrom("jobs").select((eb) => eb.fn.min("nextAttemptAt").as("at")).where("status", "=", "pending").executeTakeFirst(),
    db.selectFrom("jobs").select((eb) => eb.fn.min("lockedUntil").as("at")).where("status", "=", "running").executeTakeFirst(),
  ]);
  const times = [pending?.at, running?.at].filter((at): at is string => typeof at === "string").map((at) => Date.parse(at));
  return times.length === 0 ? undefined : new Date(Math.min(...times));
}

/**
 * Up to `limit` due jobs, unclaimed: pending ones whose time has come, and running ones whose
 * lease ran out (their runner died or stalled). Claim each with {@link claimJob} just before
 * running it, so a runner that stops mid-batch holds at most the one job it was running.
 *
 * @example
 * ```ts
 * for (const job of await dueJobs(db, clock, 50)) {
 *   const claim = await claimJob(db, clock, job);
 *   if (claim !== undefined) await run(claim);
 * }
 * ```
 */
export async function dueJobs(db: Kysely<Database>, clock: Clock, limit: number): Promise<DueJob[]> {
  const now = isoNow(clock);
  return db
    .selectFrom("jobs")
    .select(["id", "kind", "refId", "payload", "attempts", "maxAttempts", "status", "lockedUntil"])
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("nextAttemptAt", "<=", now)]),
        eb.and([eb("status", "=", "running"), eb("lockedUntil", "<", now)]),
      ]),
    )
    .orderBy("nextAttemptAt")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/**
 * Reserves one job read by {@link dueJobs} for `leaseMs` ({@link JOB_LEASE_MS} unless the
 * operator set `TIDINGS_JOB_LEASE_SECONDS`) with a conditional update
 * (same status, attempt and lease as read), so two runners never take the same job. Answers the
 * claim, or undefined when another runner took or finished it since it was read.
 *
 * @example
 * ```ts
 * const claim = await claimJob(db, clock, due[0]); // undefined: another instance has it
 * ```
 */
export async function claimJob(db: Kysely<Database>, clock: Clock, job: DueJob, leaseMs = JOB_LEASE_MS): Promise<JobRow | undefined> {
  const now = isoNow(clock);
  const lockedUntil = new Date(clock.now().getTime() + leaseMs).toISOString();
  let update = db
    .updateTable("jobs")
    .set({ status: "running", attempts: job.attempts + 1, lockedUntil, updatedAt: now })
    .where("id", "=", job.id)
    .where("status", "=", job.status)
    .where("attempts", "=", job.attempts);
  update = job.lockedUntil === null ? update.where("lockedUntil", "is", null) : update.where("lockedUntil", "=", job.lockedUntil);
  const result = await update.executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return { id: job.id, kind: job.kind, refId: job.refId, payload: job.payload, attempts: job.attempts + 1, maxAttempts: job.maxAttempts };
}

/**
 * Reserves up to `limit` due jobs at once ({@link dueJobs}, then {@link claimJob} each).
 *
 * @example
 * ```ts
 * const claimed = await claimDueJobs(db, clock, 10);
 * ```
 */
export async function claimDueJobs(db: Kysely<Database>, clock: Clock, limit: number): Promise<JobRow[]> {
  const claimed: JobRow[] = [];
  for (const job of await dueJobs(db, clock, limit)) {
    const claim = await claimJob(db, clock, job);
    if (claim !== undefined) claimed.push(claim);
  }
  return claimed;
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
