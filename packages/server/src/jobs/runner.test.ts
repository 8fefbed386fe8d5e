import { describe, expect, it } from "vitest";
import { createTestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { retryDelay } from "../webhooks/retry.js";
import { enqueueJobs } from "./queue.js";
import { RetryLater } from "./job-outcomes.js";

/**
 * A "probe" handler that records each payload and holds the first job until `release()`:
 * `first` resolves once that job has started.
 */
function holdFirstProbe(jobs: { handle(kind: string, run: (payload: unknown) => Promise<void>): void }) {
  const ran: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const first = new Promise<void>((resolve) => (started = resolve));
  jobs.handle("probe", async (payload) => {
    ran.push(payload as string);
    if (ran.length === 1) {
      started();
      await gate;
    }
  });
  return { ran, first, release };
}

describe.each(testDialects())("draining the job runner on %s", (dialect) => {
  it("finishes the job in progress and leaves the rest for another instance", async () => {
    // Ticked by hand only: a started runner would also be woken by the jobs queued below.
    const t = await createTestApp(dialect, { demo: false }, { jobIntervalMs: 0 });
    try {
      const { ran, first, release } = holdFirstProbe(t.app.jobs);
      const db = t.database.db.kysely;
      await enqueueJobs(db, t.clock, ["a", "b", "c"].map((name) => ({ kind: "probe", dedupeKey: `probe:${name}`, payload: name })));
      const tick = t.app.jobs.tick();
      await first;
      const stopping = t.app.jobs.stop();
      release();
      await Promise.all([tick, stopping]);
      expect(ran).toHaveLength(1);
      const rows = await db.selectFrom("jobs").select(["payload", "status"]).where("kind", "=", "probe").execute();
      expect(rows.map((row) => [JSON.parse(row.payload), row.status]).sort()).toEqual(
        ["a", "b", "c"].map((name) => [name, name === ran[0] ? "done" : "pending"]),
      );
    } finally {
      await t.close();
    }
  });

  it("finishes the job in progress when stopped (SIGTERM) while started, and wakes no more", async () => {
    const t = await createTestApp(dialect, { demo: false }, { jobIntervalMs: 60_000, fakeTimers: true });
    try {
      const { ran, first, release } = holdFirstProbe(t.app.jobs);
      const db = t.database.db.kysely;
      await enqueueJobs(db, t.clock, ["a", "b"].map((name) => ({ kind: "probe", dedupeKey: `probe:${name}`, payload: name })));
      t.app.jobs.kick();
      await first;
      // What the app's preClose hook does on SIGTERM.
      const stopping = t.app.jobs.stop();
      release();
      await stopping;
      t.clock.advance(60 * 60_000);
      await t.app.jobs.settled();
      expect(ran).toHaveLength(1);
      const rows = await db.selectFrom("jobs").select(["payload", "status"]).where("kind", "=", "probe").execute();
      expect(rows.map((row) => [JSON.parse(row.payload), row.status]).sort()).toEqual(["a", "b"].map((name) => [name, name === ran[0] ? "done" : "pending"]));
    } finally {
      await t.close();
    }
  });
});

describe.each(testDialects())("waking the job runner on %s", (dialect) => {
  it("runs a webhook's first retry when it falls due (4–6 s), not on the next poll", async () => {
    // A poll a minute apart: only a wake-up set for the retry's time can run it within seconds.
    const t = await createTestApp(dialect, { demo: false }, { jobIntervalMs: 60_000, fakeTimers: true });
    try {
      const runs: number[] = [];
      const delays = [retryDelay(1, () => 0), retryDelay(1, () => 1)];
      t.app.jobs.handle("flaky", async () => {
        runs.push(t.clock.now().getTime());
        const delay = delays[runs.length - 1];
        if (delay !== undefined) throw new RetryLater("receiver answered 503", delay);
      });
      await t.app.jobs.settled();
      t.clock.advance(0);
      await t.app.jobs.settled();
      const start = t.clock.now().getTime();
      await enqueueJobs(t.database.db.kysely, t.clock, [{ kind: "flaky", dedupeKey: "flaky", payload: {} }]);
      t.app.jobs.kick();
      await t.app.jobs.settled();
      expect(runs).toEqual([start]);

      t.clock.advance(3_999);
      await t.app.jobs.settled();
      expect(runs).toHaveLength(1);
      t.clock.advance(1);
      await t.app.jobs.settled();
      expect(runs).toEqual([start, start + 4_000]);

      t.clock.advance(5_999);
      await t.app.jobs.settled();
      expect(runs).toHaveLength(2);
      t.clock.advance(1);
      await t.app.jobs.settled();
      expect(runs).toEqual([start, start + 4_000, start + 10_000]);
      const row = await t.database.db.kysely.selectFrom("jobs").select(["status", "attempts"]).where("dedupeKey", "=", "flaky").executeTakeFirstOrThrow();
      expect(row).toEqual({ status: "done", attempts: 3 });
    } finally {
      await t.close();
    }
  });

  it("still ticks at most the interval apart when nothing is due (the steps run)", async () => {
    const t = await createTestApp(dialect, { demo: false }, { jobIntervalMs: 60_000, fakeTimers: true });
    try {
      let steps = 0;
      t.app.jobs.step(async () => void steps++);
      await t.app.jobs.settled();
      t.clock.advance(59_999);
      await t.app.jobs.settled();
      expect(steps).toBe(0);
      t.clock.advance(1);
      await t.app.jobs.settled();
      expect(steps).toBe(1);
      t.clock.advance(60_000);
      await t.app.jobs.settled();
      expect(steps).toBe(2);
    } finally {
      await t.close();
    }
  });
});
