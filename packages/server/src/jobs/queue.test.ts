import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { claimDueJobs, claimJob, dueJobs, JOB_LEASE_MS } from "./job-claims.js";
import { completeJob, failJob } from "./job-outcomes.js";
import { enqueueJobs } from "./queue.js";

describe.each(testDialects())("job queue on %s", (dialect) => {
  let database: TestDatabase;
  const clock = new FakeClock();
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.cleanup());

  it("enqueues a key once, hands a job to one claimer, and takes it back after the lease", async () => {
    const db = database.db.kysely;
    const add = () => db.transaction().execute((trx) => enqueueJobs(trx, clock, [{ kind: "k", dedupeKey: "one", payload: { n: 1 } }]));
    expect(await add()).toBe(1);
    expect(await add()).toBe(0);
    const [a, b] = await Promise.all([claimDueJobs(db, clock, 10), claimDueJobs(db, clock, 10)]);
    expect(a!.length + b!.length).toBe(1);
    const job = (a!.length === 1 ? a! : b!)[0]!;
    expect(await claimDueJobs(db, clock, 10)).toEqual([]);
    clock.advance(JOB_LEASE_MS + 1);
    const [again] = await claimDueJobs(db, clock, 10);
    expect(again?.attempts).toBe(2);
    // The first claimer's late outcome is ignored; the current one counts.
    await failJob(db, clock, job, "late");
    await completeJob(db, clock, again!);
    const row = await db.selectFrom("jobs").selectAll().where("dedupeKey", "=", "one").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "done", lastError: null });
  });

  it("takes a job back after the lease it was claimed with (TIDINGS_JOB_LEASE_SECONDS)", async () => {
    const db = database.db.kysely;
    await db.transaction().execute((trx) => enqueueJobs(trx, clock, [{ kind: "short", dedupeKey: "short-lease", payload: {} }]));
    const [due] = await dueJobs(db, clock, 10);
    expect(await claimJob(db, clock, due!, 3000)).toMatchObject({ attempts: 1 });
    clock.advance(3000);
    expect(await dueJobs(db, clock, 10)).toEqual([]);
    clock.advance(1);
    const [again] = await claimDueJobs(db, clock, 10);
    expect(again).toMatchObject({ kind: "short", attempts: 2 });
    await completeJob(db, clock, again!);
  });

  it("retries with backoff and gives up after maxAttempts", async () => {
    const db = database.db.kysely;
    await db.transaction().execute((trx) => enqueueJobs(trx, clock, [{ kind: "k", dedupeKey: "two", payload: {}, maxAttempts: 2 }]));
    const [first] = await claimDueJobs(db, clock, 10);
    await failJob(db, clock, first!, "boom");
    expect(await claimDueJobs(db, clock, 10)).toEqual([]);
    clock.advance(30_000);
    const [second] = await claimDueJobs(db, clock, 10);
    await failJob(db, clock, second!, "boom again");
    const row = await db.selectFrom("jobs").selectAll().where("dedupeKey", "=", "two").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "failed", attempts: 2, lastError: "boom again" });
  });

  it("keeps at most 1000 units of an error, never half a character", async () => {
    const db = database.db.kysely;
    await db.transaction().execute((trx) => enqueueJobs(trx, clock, [{ kind: "long-error", dedupeKey: "long-error", payload: {}, maxAttempts: 1 }]));
    const job = (await claimDueJobs(db, clock, 10)).find((j) => j.kind === "long-error");
    await failJob(db, clock, job!, `x${"🦄".repeat(600)}`);
    const row = await db.selectFrom("jobs").selectAll().where("dedupeKey", "=", "long-error").executeTakeFirstOrThrow();
    expect(row.lastError).toBe(`x${"🦄".repeat(499)}`);
  });
});
