/** Measures GET /api/v1/public/config/app_demo on the real Tidings server against a bare Fastify route serving the same JSON. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp, loadConfig } from "@tidings/server";
import type autocannon from "autocannon";
import Fastify from "fastify";
import { CONNECTIONS, load } from "./load.js";

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

  const ratio = t.requests.average / b.requests.average;
  const row = (name: string, r: autocannon.Result): string =>
    `${name.padEnd(32)} ${r.requests.average.toFixed(0).padStart(9)} ${r.latency.p99.toFixed(1).padStart(10)}`;
  console.log(`${CONNECTIONS} connections, ${seconds}s measured each after a ${WARMUP_SECONDS}s warm-up, loopback`);
  console.log(`${"route".padEnd(32)} ${"req/s".padStart(9)} ${"p99 ms".padStart(10)}`);
  console.log(row("tidings /public/config/app_demo", t));
  console.log(row("bare fastify /config", b));
  console.log(`ratio tidings/bare req/s: ${ratio.toFixed(2)}x`);
  console.log(`target: public config >= ${TARGET_RATIO.toFixed(2)}x bare route: ${ratio >= TARGET_RATIO ? "PASS" : "BELOW"}`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await Promise.all([tidings.close(), bare.close()]);
  await rm(dataDir, { recursive: true, force: true });
}
