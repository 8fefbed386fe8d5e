import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database, JobsTable } from "../db/schema.js";

/** How long a claimed job is reserved by default (`TIDINGS_JOB_LEASE_SECONDS`); a runner that died mid-job frees it after this. */
export const JOB_LEASE_MS = 5 * 60_000;
/** A claimed job as its handler gets it. */
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
