/**
 * How soon the background runner starts work: enqueue-to-start latency (the job is committed,
 * then its handler starts) and due-to-start lateness (a job queued 20 ms ahead, started by the
 * runner's own wake-up), p50 and p95, on SQLite and, when BENCH_DATABASE_URL names a PostgreSQL
 * server, on PostgreSQL too (a schema of its own, dropped afterwards). On SQLite the writer kicks
 * its own runner after the commit, as the routes do; on PostgreSQL the job is queued by a second
 * instance (its own pool) that never kicks, so only LISTEN/NOTIFY can wake the worker. Polling
 * alone would start work half the 5 s interval late on average.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { buildApp, data, loadConfig, migrateToLatest, openDatabase, systemClock, type Db } from "@tidings/server";

const SAMPLES = Number(process.env.BENCH_JOBS ?? 200);
if (!Number.isInteger(SAMPLES) || SAMPLES < 1) throw new Error(`BENCH_JOBS must be a positive integer, got "${process.env.BENCH_JOBS}"`);
const AHEAD_MS = 20;
const postgresUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;

type App = Awaited<ReturnType<typeof buildApp>>;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms`;
}

/** Measures `SAMPLES` jobs one after another: `queue` commits one (due at `runAt`), the worker's handler marks its start. */
async function measure(worker: App, queue: (key: string, runAt: Date | undefined) => Promise<void>, ahead: number): Promise<number[]> {
  const waiting = new Map<string, (startedAt: number) => void>();
  worker.jobs.handle("bench", async (payload) => waiting.get(payload as string)?.(performance.now()));
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const key = `bench-${ahead}-${i}-${process.pid}`;
    const started = new Promise<number>((resolve) => waiting.set(key, resolve));
    const runAt = ahead === 0 ? undefined : new Date(Date.now() + ahead);
    const dueAt = performance.now() + ahead;
    await queue(key, runAt);
    const committedAt = performance.now();
    const startedAt = await started;
    waiting.delete(key);
    samples.push(startedAt - (ahead === 0 ? committedAt : dueAt));
  }
  return samples;
}

const enqueue = (db: Db) => (key: string, runAt: Date | undefined) =>
  db.kysely.transaction().execute(async (trx) => {
    await data.enqueueJobs(trx, systemClock, [{ kind: "bench", dedupeKey: key, payload: key, ...(runAt === undefined ? {} : { runAt }) }]);
  });

async function sqlite(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "tidings-bench-jobs-"));
  const app = await buildApp(loadConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", TIDINGS_DEMO: "false" }), { logger: false });
  try {
    await app.ready();
    const queue = enqueue(app.ctx.db);
    const kicked = async (key: string, runAt: Date | undefined) => {
      await queue(key, runAt);
      app.jobs.kick();
    };
    console.log(`SQLite      enqueue→start ${summary(await measure(app, kicked, 0))}  (the writer kicks its runner after the commit)`);
    console.log(`SQLite      due→start     ${summary(await measure(app, kicked, AHEAD_MS))}  (queued ${AHEAD_MS} ms ahead)`);
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function postgres(url: string): Promise<void> {
  const schema = `tidings_bench_jobs_${process.pid}`;
  const admin = openDatabase(url);
  await admin.kysely.schema.createSchema(schema).execute();
  const webDb = openDatabase(url, { schema });
  const workerDb = openDatabase(url, { schema });
  const config = loadConfig({ DATA_DIR: "/nonexistent-bench-data", DATABASE_URL: url, LOG_LEVEL: "silent", TIDINGS_DEMO: "false" });
  try {
    await migrateToLatest(webDb, { schema });
    // The web instance only queues; the worker's runner hears of it through LISTEN/NOTIFY alone.
    const web = await buildApp({ ...config, role: "web" }, { db: webDb, logger: false });
    const worker = await buildApp({ ...config, role: "worker" }, { db: workerDb, logger: false });
    try {
      await Promise.all([web.ready(), worker.ready()]);
      const queue = enqueue(webDb);
      console.log(`PostgreSQL  enqueue→start ${summary(await measure(worker, queue, 0))}  (queued by another instance: LISTEN/NOTIFY)`);
      console.log(`PostgreSQL  due→start     ${summary(await measure(worker, queue, AHEAD_MS))}  (queued ${AHEAD_MS} ms ahead)`);
    } finally {
      await web.close();
      await worker.close();
    }
  } finally {
    await webDb.destroy();
    await workerDb.destroy();
    await admin.kysely.schema.dropSchema(schema).cascade().execute();
    await admin.destroy();
  }
}

// The runner's timers are unref'd (they never keep a server alive): this keeps the bench alive.
const keepAlive = setInterval(() => undefined, 60_000);
console.log(`Background jobs: when work starts (${SAMPLES} jobs one after another; a fixed 5 s tick would average ~2,500 ms)`);
await sqlite();
if (postgresUrl === undefined) console.log("PostgreSQL  skipped (set BENCH_DATABASE_URL)");
else await postgres(postgresUrl);
clearInterval(keepAlive);
