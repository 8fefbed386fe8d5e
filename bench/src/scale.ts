/**
 * Growth curve and many apps (`npm run bench:scale`, never part of `npm test`).
 *
 * 1. Boards of BENCH_SCALE_SIZES requests (default 10k, 100k and 1M; 10 votes each on average,
 *    comments, one in 20 pending review; see scale-seed.ts), each on a fresh database seeded in
 *    bulk and served by `tidings serve` in a child process, all sizes at once and measured in
 *    turns (each operation on every size, ROUNDS times). For each size and engine: p50/p95
 *    (sequential requests) and throughput (autocannon) of every board operation, the server's
 *    RSS and the database's size, and the background work's idle tick (timed in this process
 *    before the server starts). Target: from 100k to 1M, no p95 (nor the tick) grows by more than
 *    1.5x, the median of the rounds' ratios.
 * 2. BENCH_SCALE_APPS apps (default 10,000) of 100 requests in one instance, against an instance
 *    holding one such app, both running and measured in alternated rounds: config, listing and
 *    vote on a warm app within 1.2x of the single app (search is printed beside them, held to the
 *    same line); the first request for a cold app within 2x
 *    of a warm one; RSS after every app was read once, against the single app's.
 *
 * SQLite always; PostgreSQL too when BENCH_DATABASE_URL names a server (a schema per run, dropped
 * afterwards); BENCH_SCALE_ENGINES=sqlite or =postgres runs one of them. BENCH_SECONDS (default 3) per autocannon run, BENCH_SCALE_SAMPLES (default 200)
 * sequential requests per latency figure. BENCH_SCALE_APPS=0 skips the second part.
 * BENCH_SCALE_OPS (e.g. "search,similar requests") times only those board operations.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp, loadConfig } from "@tidings/server";
import { sql } from "kysely";
import { alternate, median, ratio, ROUNDS } from "./alternate.js";
import { CONNECTIONS } from "./load.js";
import { openBenchDatabase, type BenchDatabase, type EngineName } from "./scale-database.js";
import { APP_OPERATIONS, BOARD_OPERATIONS, fixed, measure, megabytes, timeOne, type Figures, type Operation, type Target } from "./scale-measure.js";
import { seedApp, seedWorkspace, type SeededApp } from "./scale-seed.js";
import { startServerChild, type ServerChild } from "./server-child.js";

const SIZES = (process.env.BENCH_SCALE_SIZES ?? "10000,100000,1000000").split(",").map(Number).filter((n) => n > 0);
const APPS = Number(process.env.BENCH_SCALE_APPS ?? 10_000);
const APP_REQUESTS = 100;
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const SAMPLES = Number(process.env.BENCH_SCALE_SAMPLES ?? 200);
/** BENCH_SCALE_OPS: a comma-separated subset of the board operations (default all), to time a few quickly. */
const chosen = process.env.BENCH_SCALE_OPS?.split(",").map((op) => op.trim()).filter((op) => op !== "");
const OPERATIONS = BOARD_OPERATIONS.filter((op) => chosen === undefined || chosen.length === 0 || chosen.includes(op));
const postgresUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;
const engines = (process.env.BENCH_SCALE_ENGINES ?? (postgresUrl === undefined ? "sqlite" : "sqlite,postgres")).split(",").map((s) => s.trim());
if (engines.some((e) => e !== "sqlite" && e !== "postgres")) throw new Error(`BENCH_SCALE_ENGINES takes sqlite and postgres, got "${process.env.BENCH_SCALE_ENGINES}"`);
if (engines.includes("postgres") && postgresUrl === undefined) throw new Error("BENCH_SCALE_ENGINES=postgres needs BENCH_DATABASE_URL");
const GROWTH_TARGET = 1.5;
const WARM_TARGET = 1.2;
const COLD_TARGET = 2;
/** Cold apps whose first request is timed, per operation. */
const COLD_APPS = 100;
/** Idle background ticks timed per board, after WARM_TICKS untimed. */
const TICKS = 9;
const WARM_TICKS = 5;
const VIEWER = "bench-viewer";

interface BoardRun {
  size: number;
  seedSeconds: number;
  bytes: number;
  memory: { rss: number; peak: number };
  /** Medians of the rounds. */
  figures: Map<Operation, Figures>;
  /** Each round's figures, in round order (the sizes took turns within each round). */
  rounds: Map<Operation, Figures[]>;
  /** The background work's idle tick, in ms (median of TICKS). */
  tickMs: number;
}

/**
 * Seeds `seed` into a fresh database, runs `before` on it in this process, then serves it from a
 * child process until `use` is done.
 */
async function served<T>(
  url: string | undefined,
  label: string,
  seed: (database: BenchDatabase) => Promise<Target>,
  use: (server: ServerChild, target: Target, bytes: number) => Promise<T>,
  before?: (database: BenchDatabase) => Promise<void>,
) {
  const database = await openBenchDatabase(url, label);
  try {
    const target = await seed(database);
    await database.settle();
    const bytes = await database.size();
    await before?.(database);
    await database.db.destroy();
    const server = await startServerChild(database.serverEnv);
    try {
      // The viewer has voted on a few requests, so their pages are really personalised.
      for (const id of target.ids.slice(0, 5)) await vote(server.url, id, VIEWER);
      return await use(server, target, bytes);
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

async function vote(base: string, id: string, token: string): Promise<void> {
  const res = await fetch(`${base}/api/v1/feature-requests/${id}/vote`, { method: "POST", headers: { "content-type": "application/json", "x-user-token": token }, body: "{}" });
  if (!res.ok) throw new Error(`vote answered ${res.status}`);
  await res.arrayBuffer();
}

/**
 * Median time of the background work's tick (publishing, ship notifications, due jobs, tracker
 * sync) with nothing to do, on the seeded database in this process, after WARM_TICKS to warm up.
 * On SQLite a tick runs on the thread that serves requests, so whatever it reads of the board,
 * every request waits for.
 */
async function tickMs(database: BenchDatabase): Promise<number> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "tidings-bench-tick-"));
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", TIDINGS_DEMO: "0" }), { db: database.db, logger: false, jobIntervalMs: 0 });
  try {
    // The first ticks prepare their statements and are compiled: on a 1M board a process's first
    // ticks took 4.8, 1.7 and 1.1 ms, and 0.7-1.2 ms from then on.
    for (let i = 0; i < WARM_TICKS; i++) await app.jobs.tick();
    const times: number[] = [];
    for (let i = 0; i < TICKS; i++) {
      const t0 = performance.now();
      await app.jobs.tick();
      times.push(performance.now() - t0);
    }
    return median(times);
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Requests all over the board (not only the newest), as targets of reads and writes. */
async function spreadIds(database: BenchDatabase, app: SeededApp): Promise<string[]> {
  const rows = await database.db.kysely
    .selectFrom("featureRequests")
    .select("id")
    .where("appId", "=", app.appId)
    .where("moderation", "=", "approved")
    .orderBy(sql`random()`)
    .limit(200)
    .execute();
  return rows.map((r) => r.id);
}

/** A board seeded, timed at rest and served, waiting for its turns. */
interface ServedBoard {
  size: number;
  seedSeconds: number;
  bytes: number;
  tickMs: number;
  server: ServerChild;
  target: Target;
}

/**
 * Every board size seeded and served at once, then measured in alternated rounds: for each
 * operation, every board in turn, ROUNDS times. Measured one size after the other, the sizes'
 * p95s (the 10th slowest of 200 requests) were taken minutes apart on a machine whose speed drifts,
 * and a growth of 3x between two legs could be the machine's; in turns, drift lands on every size
 * alike, and each growth is the median of the rounds' own ratios.
 */
async function boardsRun(url: string | undefined, sizes: readonly number[]): Promise<BoardRun[]> {
  const up: ServedBoard[] = [];
  const serve = async (i: number): Promise<BoardRun[]> => {
    if (i === sizes.length) return measureBoards(up);
    const size = sizes[i]!;
    let seedSeconds = 0;
    let tick = NaN;
    return served(
      url,
      `scale${size}`,
      async (database) => {
        const t0 = performance.now();
        const app = await seedApp(database.db, await seedWorkspace(database.db), "Board", size);
        seedSeconds = (performance.now() - t0) / 1000;
        console.log(`${database.engine}: seeded ${size} requests in ${seedSeconds.toFixed(1)} s`);
        return { appKey: app.appKey, ids: await spreadIds(database, app), viewer: VIEWER };
      },
      async (server, target, bytes) => {
        up.push({ size, seedSeconds, bytes, tickMs: tick, server, target });
        try {
          return await serve(i + 1);
        } finally {
          up.pop();
        }
      },
      async (database) => {
        tick = await tickMs(database);
      },
    );
  };
  return serve(0);
}

async function measureBoards(boards: readonly ServedBoard[]): Promise<BoardRun[]> {
  const rounds = boards.map(() => new Map<Operation, Figures[]>());
  for (const op of OPERATIONS) {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, board] of boards.entries()) {
        const figures = await measure(board.server.url, op, board.target, SAMPLES, seconds);
        rounds[i]!.set(op, [...(rounds[i]!.get(op) ?? []), figures]);
      }
    }
  }
  const runs: BoardRun[] = [];
  for (const [i, board] of boards.entries()) {
    const figures = new Map<Operation, Figures>();
    for (const [op, taken] of rounds[i]!) {
      figures.set(op, { p50: median(taken.map((f) => f.p50)), p95: median(taken.map((f) => f.p95)), rps: median(taken.map((f) => f.rps)) });
    }
    runs.push({ size: board.size, seedSeconds: board.seedSeconds, bytes: board.bytes, memory: await board.server.memory(), figures, rounds: rounds[i]!, tickMs: board.tickMs });
  }
  return runs;
}

const label = (size: number) => (size >= 1_000_000 ? `${size / 1_000_000}M` : size >= 1000 ? `${size / 1000}k` : String(size));
const row = (name: string, cells: string[]) => console.log(`${name.padEnd(22)} ${cells.map((c) => c.padStart(22)).join(" ")}`);

function printBoards(engine: EngineName, runs: BoardRun[]): void {
  console.log(`\n${engine}: p50 / p95 ms (sequential) and req/s (${CONNECTIONS} connections, ${seconds}s), by board size; medians of ${ROUNDS} rounds, the sizes in turn`);
  row("operation", runs.map((r) => `${label(r.size)} requests`));
  for (const op of OPERATIONS) {
    row(
      op,
      runs.map((r) => {
        const f = r.figures.get(op)!;
        return `${fixed(f.p50)} / ${fixed(f.p95)}  ${fixed(f.rps)}/s`;
      }),
    );
  }
  row("background tick", runs.map((r) => `${fixed(r.tickMs)} ms`));
  row("seeded in", runs.map((r) => `${r.seedSeconds.toFixed(0)} s`));
  row("database size", runs.map((r) => megabytes(r.bytes)));
  row("server RSS (peak)", runs.map((r) => `${megabytes(r.memory.rss)} (${megabytes(r.memory.peak)})`));
  for (let i = 1; i < runs.length; i++) {
    const [from, to] = [runs[i - 1]!, runs[i]!];
    const judged = from.size === 100_000 && to.size === 1_000_000;
    console.log(`p95 growth ${label(from.size)} -> ${label(to.size)}${judged ? ` (target <= ${GROWTH_TARGET}x)` : ""}:`);
    const grew = (name: string, growth: number, rounds?: string) =>
      console.log(`  ${name.padEnd(20)} ${growth.toFixed(2)}x${judged ? (growth <= GROWTH_TARGET ? "  PASS" : "  ABOVE") : ""}${rounds === undefined ? "" : `  (rounds ${rounds})`}`);
    for (const op of OPERATIONS) {
      const p95s = { from: from.rounds.get(op)!.map((f) => f.p95), to: to.rounds.get(op)!.map((f) => f.p95) };
      const growth = ratio(p95s, "to", "from");
      grew(op, growth.median, growth.rounds.map((r) => `${r.toFixed(2)}x`).join(", "));
    }
    grew("background tick", to.tickMs / from.tickMs);
  }
}

/** Seeds `count` apps of APP_REQUESTS requests; the first is the warm one. */
async function seedApps(database: BenchDatabase, count: number): Promise<Target & { coldKeys: string[]; allKeys: string[] }> {
  const workspaceId = await seedWorkspace(database.db);
  const t0 = performance.now();
  const apps: SeededApp[] = [];
  for (let i = 0; i < count; i++) {
    apps.push(await seedApp(database.db, workspaceId, `App ${i}`, APP_REQUESTS));
    // Statistics as the tables grow (at 50, 100, 200, … apps): without them a PostgreSQL whose
    // autovacuum is off, or behind, plans each app's recount for the empty tables of the start,
    // and seeding slowed from about 0.1 s an app to 0.7 s by the 1,300th.
    if (i + 1 >= 50 && Number.isInteger(Math.log2((i + 1) / 50))) await database.settle();
    if ((i + 1) % 1000 === 0 || i + 1 === count) console.log(`${database.engine}: ${i + 1} apps seeded (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const warm = apps[0]!;
  return { appKey: warm.appKey, ids: warm.recentIds, viewer: VIEWER, coldKeys: apps.slice(1, 1 + 2 * COLD_APPS).map((a) => a.appKey), allKeys: apps.map((a) => a.appKey) };
}

async function appsRun(url: string | undefined): Promise<void> {
  await served(
    url,
    "oneapp",
    async (database) => {
      const one = await seedApps(database, 1);
      return one;
    },
    (single, singleTarget) =>
      served(
        url,
        "apps",
        async (database) => seedApps(database, APPS),
        async (many, manyTarget, bytes) => {
          const { coldKeys, allKeys } = manyTarget as Awaited<ReturnType<typeof seedApps>>;
          const engine = url === undefined ? "SQLite" : "PostgreSQL";
          // First requests for apps nothing has read since the server started, each paired with
          // the same request for the warm app right after it, so drift lands on both alike.
          const half = Math.ceil(coldKeys.length / 2);
          const firstAndWarm = async (keys: string[], op: Operation) => {
            const first: number[] = [];
            const warm: number[] = [];
            for (const appKey of keys) {
              first.push(await timeOne(many.url, op, { ...manyTarget, appKey }));
              warm.push(await timeOne(many.url, op, manyTarget));
            }
            return { first, warm };
          };
          await timeOne(many.url, "config", manyTarget);
          await timeOne(many.url, "anonymous page", manyTarget);
          const coldConfig = await firstAndWarm(coldKeys.slice(0, half), "config");
          const coldPage = await firstAndWarm(coldKeys.slice(half), "anonymous page");
          const stash = new Map<string, Figures[]>();
          const side = (server: ServerChild, target: Target, op: Operation, name: string) => async () => {
            const f = await measure(server.url, op, target, SAMPLES, seconds);
            stash.set(name, [...(stash.get(name) ?? []), f]);
            return f.rps;
          };
          for (const op of APP_OPERATIONS) {
            await alternate({ single: side(single, singleTarget, op, `single ${op}`), many: side(many, manyTarget, op, `many ${op}`) });
          }
          const singleMemory = await single.memory();
          const warmMemory = await many.memory();
          // Every app read once: what the instance holds is bounded by its caches, not the apps.
          // The RSS after each quarter shows whether it follows the apps read or levels off.
          const t0 = performance.now();
          const quarters: number[] = [];
          for (const [i, appKey] of allKeys.entries()) {
            await timeOne(many.url, "config", { ...manyTarget, appKey });
            await timeOne(many.url, "anonymous page", { ...manyTarget, appKey });
            if ((i + 1) % Math.ceil(allKeys.length / 4) === 0 && i + 1 < allKeys.length) quarters.push((await many.memory()).rss);
          }
          const sweepSeconds = (performance.now() - t0) / 1000;
          const sweptMemory = await many.memory();
          quarters.push(sweptMemory.rss);

          const mid = (name: string, pick: (f: Figures) => number) => median(stash.get(name)!.map(pick));
          console.log(`\n${engine}: ${APPS} apps of ${APP_REQUESTS} requests in one instance (database ${megabytes(bytes)}) against one app alone; medians of ${stash.get("single config")!.length} alternated rounds`);
          row("operation", ["one app p95 / req/s", `${label(APPS)} apps p95 / req/s`, "p95 ratio", "req/s ratio"]);
          for (const op of APP_OPERATIONS) {
            const [s95, m95] = [mid(`single ${op}`, (f) => f.p95), mid(`many ${op}`, (f) => f.p95)];
            const [sRps, mRps] = [mid(`single ${op}`, (f) => f.rps), mid(`many ${op}`, (f) => f.rps)];
            const ratio = m95 / s95;
            row(op, [`${fixed(s95)} ms / ${fixed(sRps)}`, `${fixed(m95)} ms / ${fixed(mRps)}`, `${ratio.toFixed(2)}x ${ratio <= WARM_TARGET ? "PASS" : "ABOVE"}`, `${(mRps / sRps).toFixed(2)}x`]);
          }
          const cold = (name: string, samples: { first: number[]; warm: number[] }) => {
            const first = median(samples.first);
            const warm = median(samples.warm);
            const ratio = first / warm;
            row(name, [`${fixed(first)} ms`, `warm ${fixed(warm)} ms`, `${ratio.toFixed(2)}x ${ratio <= COLD_TARGET ? "PASS" : "ABOVE"}`, `(target <= ${COLD_TARGET}x)`]);
          };
          cold("cold app, config (p50)", coldConfig);
          cold("cold app, page (p50)", coldPage);
          row("server RSS", [`one app ${megabytes(singleMemory.rss)}`, `warm ${megabytes(warmMemory.rss)}`, `all read ${megabytes(sweptMemory.rss)}`, `peak ${megabytes(sweptMemory.peak)}`]);
          console.log(`(every app's config and page read once, in ${sweepSeconds.toFixed(0)} s, before the last RSS)`);
          row("server RSS by apps read", quarters.map((rss, i) => `${label(Math.min(allKeys.length, Math.ceil(allKeys.length / 4) * (i + 1)))}: ${megabytes(rss)}`));
        },
      ),
  );
}

let failed = false;
for (const url of [...(engines.includes("sqlite") ? [undefined] : []), ...(engines.includes("postgres") ? [postgresUrl] : [])]) {
  const engine: EngineName = url === undefined ? "SQLite" : "PostgreSQL";
  try {
    const runs: BoardRun[] = [];
    if (SIZES.length > 0) runs.push(...(await boardsRun(url, SIZES)));
    if (runs.length > 0) printBoards(engine, runs);
    if (APPS > 0) await appsRun(url);
  } catch (error) {
    console.error(`${engine}:`, error);
    failed = true;
  }
}
console.log("\nThe machine may be shared with other work: compare figures within a run, and read growth and ratios before absolute values.");
if (failed) process.exitCode = 1;
