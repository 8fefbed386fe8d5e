/**
 * Held mixed load: 32 clients send 80% reads and 20% writes for a minute (BENCH_HELD_SECONDS) on
 * SQLite, and the throughput of each 10 s window is printed. A server whose work grows with what
 * the load itself writes (pending proposals of the callers who keep reading, caches, indexes)
 * shows it as decay: the target is a last-window / first-window ratio of at least 0.9. The
 * process's RSS and heap are printed at the start and end (the load generator's thread has
 * exited when they are read, so they are the server's).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, data, DEFAULT_RATE_LIMITS, loadConfig, systemClock } from "@tidings/server";
import { load } from "./load.js";

const HOST = "127.0.0.1";
const CONNECTIONS = 32;
const WINDOW_SECONDS = 10;
const TARGET_RATIO = 0.9;
const COUNT = Number(process.env.BENCH_HELD_REQUESTS ?? 10_000);
const seconds = Number(process.env.BENCH_HELD_SECONDS ?? 60);
if (!Number.isFinite(seconds) || seconds < 2 * WINDOW_SECONDS) {
  throw new Error(`BENCH_HELD_SECONDS must be at least ${2 * WINDOW_SECONDS}, got "${process.env.BENCH_HELD_SECONDS}"`);
}
const WORDS = ["dark", "mode", "export", "sync", "offline", "widget", "calendar", "share", "import", "theme", "search", "filter"];

const dataDir = await mkdtemp(path.join(tmpdir(), "tidings-bench-held-"));
// One IP sends everything: every per-IP budget is lifted, so the limiter is consulted on every
// request but never refuses one.
const unlimited = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => [`TIDINGS_RATE_LIMIT_${bucket.toUpperCase()}`, "1000000000/60"]));
const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", TIDINGS_DEMO: "0", ...unlimited }), port: 0, host: HOST };
const tidings = await buildApp(config, { logger: false });

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const memory = () => {
  const { rss, heapUsed } = process.memoryUsage();
  return `RSS ${mb(rss)}, heap ${mb(heapUsed)}`;
};

try {
  const db = tidings.ctx.db.kysely;
  const { appKey, requestIds } = await db.transaction().execute(async (trx) => {
    const { workspace } = await data.createWorkspace(trx, systemClock, { name: "Bench", slug: "bench" }, null);
    // Feedback and proposals count against the monthly quota: a minute of load sends thousands.
    await trx.updateTable("workspaces").set({ monthlySubmissionQuota: null }).where("id", "=", workspace.id).execute();
    // The default policy: proposals from callers who are not identified (plain tokens) wait for review.
    const { row } = await data.createApp(trx, systemClock, workspace.id, { name: "Bench app" });
    const inputs = Array.from({ length: COUNT }, (_, i) =>
      data.importedRequest(row.id, `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} request ${i}`, `Please add ${WORDS[(i * 3) % WORDS.length]} support (${i}).`),
    );
    const created = await data.createFeatureRequests(trx, systemClock, tidings.ctx.db.dialect, row.id, inputs);
    return { appKey: row.appKey, requestIds: created.slice(-500).map((r) => r.id) };
  });
  const base = await tidings.listen({ port: 0, host: HOST });
  process.env.BENCH_HELD_LOAD = JSON.stringify({
    appKey,
    requestIds,
    proposers: Array.from({ length: 4 }, (_, i) => `proposer-${i}`),
    readers: Array.from({ length: 60 }, (_, i) => `reader-${i}`),
  });
  const mix = { requests: [{ setupRequest: fileURLToPath(new URL("../held-load-request.cjs", import.meta.url)) as never }], connections: CONNECTIONS };
  const url = `${base}/api/v1/public/config/${appKey}`;

  // JIT and first statements warmed before anything is recorded.
  await load(url, 2, mix);
  const atStart = memory();
  // One autocannon run per window, back to back: each window's figure is its own average.
  const windows: Array<{ rate: number; rss: number }> = [];
  for (let elapsed = 0; elapsed < seconds; elapsed += WINDOW_SECONDS) {
    const result = await load(url, Math.min(WINDOW_SECONDS, seconds - elapsed), mix);
    windows.push({ rate: result.requests.average, rss: process.memoryUsage().rss });
  }
  const atEnd = memory();
  const pending = await db
    .selectFrom("featureRequests")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("moderation", "=", "pending")
    .executeTakeFirstOrThrow();

  const first = windows[0]!.rate;
  const last = windows.at(-1)!.rate;
  const ratio = last / first;
  console.log(`held mixed load: ${CONNECTIONS} connections, ${seconds}s, 80% reads / 20% writes, loopback, SQLite, ${COUNT} requests in the app`);
  windows.forEach(({ rate, rss }, i) =>
    console.log(`${`window ${i * WINDOW_SECONDS}-${Math.min((i + 1) * WINDOW_SECONDS, seconds)} s (req/s)`.padEnd(40)} ${rate.toFixed(0).padStart(10)}  (RSS after it ${mb(rss)})`),
  );
  console.log(`${"ratio last/first window".padEnd(40)} ${ratio.toFixed(2).padStart(10)}  >= ${TARGET_RATIO} ${ratio >= TARGET_RATIO ? "PASS" : "BELOW"}`);
  console.log(`${"memory at start".padEnd(40)} ${atStart}`);
  console.log(`${"memory at end".padEnd(40)} ${atEnd}`);
  console.log(`(pending proposals after the run: ${Number(pending.n)}, from 4 callers who also read the board)`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await tidings.close();
  await rm(dataDir, { recursive: true, force: true });
}
