/**
 * What collecting metrics costs on GET /api/v1/public/config/app_demo, the SDK's hottest call:
 * two server processes on one database, one with METRICS_ENABLED=1 (and a scraper reading
 * /metrics as Prometheus would), one without, measured in alternated runs (off, on, off, on, …)
 * so drift (thermal, other load on the machine) falls on both alike. Separate processes, because
 * Node's process metrics (GC and event-loop observers) would otherwise slow the "off" side too.
 * Prints the median req/s of each, the spread of the runs, and the cost against the target.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CONNECTIONS, load } from "./load.js";

const HOST = "127.0.0.1";
const WARMUP_SECONDS = 2;
const TARGET_COST = 0.05;
/** How often the scraper reads /metrics while the "on" side is measured (Prometheus' default is 15 s). */
const SCRAPE_INTERVAL_MS = 1000;
const CLI = fileURLToPath(new URL("../../packages/server/dist/cli.js", import.meta.url));

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`BENCH_SECONDS must be a positive number, got "${process.env.BENCH_SECONDS}"`);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_ROUNDS must be a positive integer, got "${process.env.BENCH_ROUNDS}"`);

/** `tidings serve` on a free port; resolves with its origin once the banner is printed. */
async function serve(env: Record<string, string>, started: ChildProcess[]): Promise<string> {
  const child = spawn(process.execPath, [CLI, "serve"], {
    env: { PATH: process.env.PATH ?? "", HOST, PORT: "0", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Tidings is listening on (http:\/\/\S+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
}

/** The middle value (mean of the two middle ones for an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** (max − min) / median, as a percentage: how far apart the runs of one side were. */
function spread(values: readonly number[]): string {
  return `${(((Math.max(...values) - Math.min(...values)) / median(values)) * 100).toFixed(1)}%`;
}

const dataDir = await mkdtemp(path.join(tmpdir(), "tidings-bench-metrics-"));
const METRICS_TOKEN = "bench-metrics-token-0123456789";
// All load comes from one IP: a config budget no run reaches, so the limiter is consulted but never refuses.
const common = { DATA_DIR: dataDir, TIDINGS_RATE_LIMIT_CONFIG: "1000000000/60" };
const servers: ChildProcess[] = [];
let scraper: NodeJS.Timeout | undefined;

try {
  // One after the other: the first migrates and seeds the demo app, the second finds both done.
  const offOrigin = await serve({ ...common, METRICS_ENABLED: "0" }, servers);
  const onOrigin = await serve({ ...common, METRICS_ENABLED: "1", METRICS_TOKEN }, servers);
  const offUrl = `${offOrigin}/api/v1/public/config/app_demo`;
  const onUrl = `${onOrigin}/api/v1/public/config/app_demo`;
  for (const url of [offUrl, onUrl]) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  }
  let scrapes = 0;
  const scrape = async () => {
    const res = await fetch(`${onOrigin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
    await res.text();
    scrapes++;
  };
  await scrape();

  await load(offUrl, WARMUP_SECONDS);
  await load(onUrl, WARMUP_SECONDS);
  const offRuns: number[] = [];
  const onRuns: number[] = [];
  for (let round = 0; round < rounds; round++) {
    offRuns.push((await load(offUrl, seconds)).requests.average);
    scraper = setInterval(() => void scrape().catch((error: unknown) => console.error(error)), SCRAPE_INTERVAL_MS);
    onRuns.push((await load(onUrl, seconds)).requests.average);
    clearInterval(scraper);
  }

  const offMedian = median(offRuns);
  const onMedian = median(onRuns);
  const cost = 1 - onMedian / offMedian;
  console.log(`${CONNECTIONS} connections, ${rounds} alternated rounds of ${seconds}s per side after a ${WARMUP_SECONDS}s warm-up, loopback, one process per side`);
  console.log(`${"public config".padEnd(24)} ${"median req/s".padStart(13)} ${"spread".padStart(8)}  runs`);
  console.log(`${"metrics off".padEnd(24)} ${offMedian.toFixed(0).padStart(13)} ${spread(offRuns).padStart(8)}  ${offRuns.map((r) => r.toFixed(0)).join(", ")}`);
  console.log(`${"metrics on".padEnd(24)} ${onMedian.toFixed(0).padStart(13)} ${spread(onRuns).padStart(8)}  ${onRuns.map((r) => r.toFixed(0)).join(", ")}`);
  console.log(`/metrics scraped ${scrapes} times while measured (every ${SCRAPE_INTERVAL_MS} ms)`);
  console.log(`cost of metrics (1 - on/off median req/s): ${(cost * 100).toFixed(1)}%`);
  console.log(`target: cost < ${(TARGET_COST * 100).toFixed(0)}%: ${cost < TARGET_COST ? "PASS" : "ABOVE"}`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  clearInterval(scraper);
  for (const child of servers) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
}
