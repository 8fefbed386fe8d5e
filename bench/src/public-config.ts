/**
 * Measures GET /api/v1/public/config/app_demo on the real Tidings server against a bare Fastify
 * route serving the same JSON and, when a Redis is reachable, a second instance on the same
 * database with REDIS_URL set (shared cache and rate limits in Redis), as each of several
 * instances would run. The routes are loaded in turn, round after round (see alternate.ts), and
 * each ratio is the median of its rounds with their spread.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp, loadConfig } from "@tidings/server";
import type autocannon from "autocannon";
import Fastify from "fastify";
import { alternate, formatRatio, median, ratio } from "./alternate.js";
import { CONNECTIONS, load } from "./load.js";
import { benchRedis, redisSkipReason } from "./redis.js";

const HOST = "127.0.0.1";

const WARMUP_SECONDS = 2;
const TARGET_RATIO = 0.85;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`BENCH_SECONDS must be a positive number, got "${process.env.BENCH_SECONDS}"`);

const dataDir = await mkdtemp(path.join(tmpdir(), "tidings-bench-"));
// All load comes from one IP: raise its config budget (60/min by default) far above what a run
// sends, so the limiter is still consulted on every request but never refuses one.
const config = {
  ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", TIDINGS_RATE_LIMIT_CONFIG: "1000000000/60" }),
  port: 0,
  host: HOST,
};
const tidings = await buildApp(config, { logger: false });
const bare = Fastify({ logger: false });
const redis = benchRedis();
let withRedis: Awaited<ReturnType<typeof buildApp>> | undefined;
let redisSkipped = redis === null ? "BENCH_REDIS_URL=off" : "";
if (redis !== null) {
  try {
    withRedis = await buildApp({ ...config, redisUrl: redis.url }, { logger: false, cachePrefix: redis.cachePrefix });
  } catch (error) {
    redisSkipped = redisSkipReason(error);
  }
}

try {
  const tidingsUrl = `${await tidings.listen({ port: 0, host: HOST })}/api/v1/public/config/app_demo`;
  const res = await fetch(tidingsUrl);
  if (!res.ok) throw new Error(`${tidingsUrl} answered ${res.status}`);
  const body: unknown = await res.json();
  bare.get("/config", async () => body);
  const bareUrl = `${await bare.listen({ port: 0, host: HOST })}/config`;

  let redisUrl: string | undefined;
  if (withRedis !== undefined) redisUrl = `${await withRedis.listen({ port: 0, host: HOST })}/api/v1/public/config/app_demo`;
  // Warm every route (JIT, SQLite lookup then cache fill) before anything is recorded.
  await load(tidingsUrl, WARMUP_SECONDS);
  await load(bareUrl, WARMUP_SECONDS);
  if (redisUrl !== undefined) await load(redisUrl, WARMUP_SECONDS);
  const p99: Record<string, number[]> = { tidings: [], bare: [], redis: [] };
  const rate = (name: string, url: string) => async () => {
    const result: autocannon.Result = await load(url, seconds);
    p99[name]!.push(result.latency.p99);
    return result.requests.average;
  };
  const runs = await alternate({
    tidings: rate("tidings", tidingsUrl),
    bare: rate("bare", bareUrl),
    ...(redisUrl === undefined ? {} : { redis: rate("redis", redisUrl) }),
  } as Record<"tidings" | "bare" | "redis", () => Promise<number>>);

  const r = ratio(runs, "tidings", "bare");
  const row = (name: string, side: "tidings" | "bare" | "redis"): string =>
    `${name.padEnd(32)} ${median(runs[side]).toFixed(0).padStart(9)} ${median(p99[side]!).toFixed(1).padStart(10)}`;
  console.log(`${CONNECTIONS} connections, ${seconds}s per run after a ${WARMUP_SECONDS}s warm-up, ${runs.tidings.length} alternated rounds, loopback`);
  console.log(`${"route (medians)".padEnd(32)} ${"req/s".padStart(9)} ${"p99 ms".padStart(10)}`);
  console.log(row("tidings /public/config/app_demo", "tidings"));
  console.log(row("bare fastify /config", "bare"));
  if (redisUrl !== undefined) console.log(row("tidings, REDIS_URL set", "redis"));
  console.log(`ratio tidings/bare req/s: ${formatRatio(r)}`);
  console.log(`target: public config >= ${TARGET_RATIO.toFixed(2)}x bare route: ${r.median >= TARGET_RATIO ? "PASS" : "BELOW"}`);
  if (redisUrl === undefined) console.log(`with Redis: skipped (${redisSkipped})`);
  else console.log(`with Redis (several-instance setup) / single instance req/s: ${formatRatio(ratio(runs, "redis", "tidings"))}`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await Promise.all([tidings.close(), bare.close(), withRedis?.close()]);
  await rm(dataDir, { recursive: true, force: true });
}
