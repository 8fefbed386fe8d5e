import type { FastifyBaseLogger } from "fastify";
import type { Context } from "../context.js";
import { claimJob, completeJob, dueJobs, failJob, RetryLater, type JobRow } from "./queue.js";

/** Runs one job; throwing schedules a retry (after the delay of a {@link RetryLater}). */
export type JobHandler = (payload: unknown, job: JobRow) => Promise<void>;

/** Work done at the start of every tick, before due jobs run (publishing scheduled releases, …). */
export type TickStep = (ctx: Context) => Promise<void>;

/** How often a running server ticks. */
export const JOB_INTERVAL_MS = 5_000;
const BATCH = 50;

/**
 * The background worker: each tick runs the registered steps, then every due job. Ticks never
 * overlap (a tick asked for while one runs waits for it, then runs once more), so tests can call
 * {@link JobRunner.tick} with a fake clock while the timer is running.
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
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly log: FastifyBaseLogger,
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
  }

  /** Asks for a tick soon without waiting for it (after a write that queued mail). */
  kick(): void {
    if (this.#timer === undefined) return;
    if (this.#running !== undefined) {
      this.#again = true;
      return;
    }
    void this.tick().catch((error: unknown) => this.log.error({ err: error }, "job tick failed"));
  }

  /** True while the interval timer runs (`TIDINGS_ROLE=web` never starts it). */
  get started(): boolean {
    return this.#timer !== undefined;
  }

  /** Starts the interval timer (it does not keep the process alive). */
  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    this.#timer = setInterval(() => this.kick(), intervalMs);
    this.#timer.unref();
  }

  /**
   * Stops the timer and drains: the job in progress finishes, the rest of the tick is left
   * pending for the next tick or another instance, and this resolves once that job is done.
   */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#draining = true;
    try {
      await this.#running;
    } finally {
      this.#draining = false;
    }
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
    } while (this.#again && this.#timer !== undefined);
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
