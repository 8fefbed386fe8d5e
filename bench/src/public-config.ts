/**
 * Measures GET /api/v1/public/config/app_demo on the real Tidings server against a bare Fastify
 * route serving the same JSON; then, when a Redis is reachable, a second instance on the same
 * database with REDIS_URL set (shared cache and rate limits in Redis), as each of several
 * instances would run.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp, loadConfig } from "@tidings/server";
import type autocannon from "autocannon";
import Fastify from "fastify";
import { CONNECTIONS, load } from "./load.js";
import { benchRedis, redisSkipReason } from "./redis.js";

const HOST = "127.0.0.1";

const WARMUP_SECONDS = 2;
const TARGET_RATIO = 0.8;
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
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

  // Warm both (JIT, SQLite lookup then cache fill) before anything is recorded.
  await load(tidingsUrl, WARMUP_SECONDS);
  await load(bareUrl, WARMUP_SECONDS);
  // Bare last here so any thermal/background drift tends to favour the baseline, not us.
  const t = await load(tidingsUrl, seconds);
  const b = await load(bareUrl, seconds);
  let r: autocannon.Result | undefined;
  if (withRedis !== undefined) {
    const redisUrl = `${await withRedis.listen({ port: 0, host: HOST })}/api/v1/public/config/app_demo`;
    await load(redisUrl, WARMUP_SECONDS);
    r = await load(redisUrl, seconds);
  }

  const ratio = t.requests.average / b.requests.average;
  const row = (name: string, r: autocannon.Result): string =>
    `${name.padEnd(32)} ${r.requests.average.toFixed(0).padStart(9)} ${r.latency.p99.toFixed(1).padStart(10)}`;
  console.log(`${CONNECTIONS} connections, ${seconds}s measured each after a ${WARMUP_SECONDS}s warm-up, loopback`);
  console.log(`${"route".padEnd(32)} ${"req/s".padStart(9)} ${"p99 ms".padStart(10)}`);
  console.log(row("tidings /public/config/app_demo", t));
  console.log(row("bare fastify /config", b));
  if (r !== undefined) console.log(row("tidings, REDIS_URL set", r));
  console.log(`ratio tidings/bare req/s: ${ratio.toFixed(2)}x`);
  console.log(`target: public config >= ${TARGET_RATIO.toFixed(2)}x bare route: ${ratio >= TARGET_RATIO ? "PASS" : "BELOW"}`);
  if (r === undefined) console.log(`with Redis: skipped (${redisSkipped})`);
  else console.log(`with Redis (several-instance setup) / single instance req/s: ${(r.requests.average / t.requests.average).toFixed(2)}x`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await Promise.all([tidings.close(), bare.close(), withRedis?.close()]);
  await rm(dataDir, { recursive: true, force: true });
}
