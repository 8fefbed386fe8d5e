import type { FastifyBaseLogger } from "fastify";
import { systemTimers, type Timers } from "../clock.js";
import type { Context } from "../context.js";
import { claimJob, dueJobs, nextDueAt, type JobRow } from "./job-claims.js";
import { completeJob, failJob, RetryLater } from "./job-outcomes.js";
import { listenForJobs, type JobListener } from "./wakeups.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The background job runner (tests call `app.jobs.tick()` with a fake clock). */
    jobs: JobRunner;
  }
}

/** Runs one job; throwing schedules a retry (after the delay of a {@link RetryLater}). */
export type JobHandler = (payload: unknown, job: JobRow) => Promise<void>;

/** Work done at the start of every tick, before due jobs run (publishing scheduled releases, …). */
export type TickStep = (ctx: Context) => Promise<void>;

/**
 * The longest a running server waits between ticks: the steps run at least this often, and work
 * queued where no one could wake the runner (another process on SQLite) is found this late.
 */
export const JOB_INTERVAL_MS = 5_000;
const BATCH = 50;

/**
 * The background worker: each tick runs the registered steps, then every due job. Between ticks
 * it sleeps until the next job falls due (a retry runs at its time, not on the next poll), at most
 * the interval given to {@link JobRunner.start}; {@link JobRunner.kick} and, on PostgreSQL, a
 * `NOTIFY` from any instance that queued work wake it at once. Ticks never overlap (a tick asked
 * for while one runs waits for it, then runs once more), so tests can call {@link JobRunner.tick}
 * with a fake clock while the runner is started.
 *
 * @example
 * ```ts
 * const runner = new JobRunner(ctx, log);
 * runner.handle("mail", (payload) => mailer.send(payload as MailMessage));
 * runner.start(5_000);
 * await runner.tick();
 * ```
 */
export class JobRunner {
  readonly #handlers = new Map<string, JobHandler>();
  readonly #steps: TickStep[] = [];
  #running: Promise<void> | undefined;
  #again = false;
  #draining = false;
  #started = false;
  #pollMs = JOB_INTERVAL_MS;
  #timer: unknown;
  #sleeping: Promise<void> | undefined;
  #listener: JobListener | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly log: FastifyBaseLogger,
    private readonly timers: Timers = systemTimers,
  ) {}

  /** Registers the handler of a job kind. */
  handle(kind: string, handler: JobHandler): void {
    this.#handlers.set(kind, handler);
  }

  /** Registers a step run at the start of each tick. */
  step(step: TickStep): void {
    this.#steps.push(step);
  }

  /** Runs one tick now (or after the one in progress) and resolves when it is over. */
  async tick(): Promise<void> {
    while (this.#running !== undefined) {
      this.#again = true;
      await this.#running;
    }
    this.#running = this.#run().finally(() => {
      this.#running = undefined;
    });
    await this.#running;
    if (this.#started && this.#running === undefined) this.#rest();
  }

  #rest(): void {
    const sleeping: Promise<void> = this.#sleep().finally(() => {
      if (this.#sleeping === sleeping) this.#sleeping = undefined;
    });
    this.#sleeping = sleeping;
  }

  /** Asks for a tick soon without waiting for it (after a write that queued mail). */
  kick(): void {
    if (!this.#started) return;
    if (this.#running !== undefined) {
      this.#again = true;
      return;
    }
    void this.tick().catch((error: unknown) => this.log.error({ err: error }, "job tick failed"));
  }

  /** True once started (`TIDINGS_ROLE=web` never starts it) and until stopped. */
  get started(): boolean {
    return this.#started;
  }

  /**
   * Starts waking up: when work falls due (at once for work already due), at most `intervalMs`
   * apart, and on PostgreSQL when any instance queues work. Its timers never keep the process alive.
   */
  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.#started) return;
    this.#started = true;
    this.#pollMs = intervalMs;
    this.#listener = listenForJobs(this.ctx.db, () => this.kick(), this.log, this.timers, intervalMs);
    this.#rest();
  }

  /** Resolves when the runner is at rest: no tick running, the next wake-up set, and the LISTEN (if any) set up. */
  async settled(): Promise<void> {
    await this.#listener?.ready;
    while (this.#running !== undefined || this.#sleeping !== undefined) {
      const running = this.#running;
      const sleeping = this.#sleeping;
      await running?.catch(() => undefined);
      await sleeping;
      if (this.#running === running && this.#sleeping === sleeping) break;
    }
  }

  /**
   * Stops waking up and drains: the job in progress finishes, the rest of the tick is left
   * pending for the next tick or another instance, and this resolves once that job is done.
   */
  async stop(): Promise<void> {
    this.#started = false;
    this.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#draining = true;
    try {
      await this.#listener?.close();
      this.#listener = undefined;
      await this.#running;
      await this.#sleeping;
    } finally {
      this.#draining = false;
    }
  }

  /** Sets the one wake-up: when the next job falls due, at most the interval from now. */
  async #sleep(): Promise<void> {
    let wait = this.#pollMs;
    try {
      const due = await nextDueAt(this.ctx.db.kysely);
      if (due !== undefined) wait = Math.min(wait, Math.max(0, due.getTime() - this.ctx.clock.now().getTime()));
    } catch (error) {
      this.log.error({ err: error }, "jobs: could not read when the next job is due");
    }
    // A tick that started meanwhile sets its own wake-up when it ends.
    if (!this.#started || this.#running !== undefined) return;
    this.timers.clearTimeout(this.#timer);
    this.#timer = this.timers.setTimeout(() => this.kick(), wait);
  }

  async #run(): Promise<void> {
    do {
      this.#again = false;
      for (const step of this.#steps) {
        if (this.#draining) return;
        try {
          await step(this.ctx);
        } catch (error) {
          this.log.error({ err: error }, "job step failed");
        }
      }
      // Each job is claimed just before it runs: a runner that dies or stalls mid-batch holds
      // only the job it was running, and the other instances go on with the rest at once.
      for (;;) {
        const due = await dueJobs(this.ctx.db.kysely, this.ctx.clock, BATCH);
        let claimed = 0;
        for (const job of due) {
          if (this.#draining) return;
          const claim = await claimJob(this.ctx.db.kysely, this.ctx.clock, job, this.ctx.config.jobLeaseMs);
          if (claim === undefined) continue;
          claimed++;
          await this.#runJob(claim);
        }
        if (due.length < BATCH || claimed === 0) break;
      }
    } while (this.#again && this.#started);
  }

  async #runJob(job: JobRow): Promise<void> {
    const db = this.ctx.db.kysely;
    const handler = this.#handlers.get(job.kind);
    try {
      if (handler === undefined) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(JSON.parse(job.payload) as unknown, job);
      await completeJob(db, this.ctx.clock, job);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, "job failed");
      await failJob(db, this.ctx.clock, job, message, ...(error instanceof RetryLater ? [error.delayMs] : []));
    }
  }
}
