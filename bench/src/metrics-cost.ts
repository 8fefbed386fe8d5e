/**
 * What collecting metrics costs on GET /api/v1/public/config/app_demo, the SDK's hottest call:
 * two server processes on one database, one with METRICS_ENABLED=1 (and a scraper reading
 * /metrics as Prometheus would), one without, measured in alternated runs (off, on, off, on, …)
 * so drift (thermal, other load on the machine) falls on both alike. Each run gets a fresh
 * process: Node's process metrics (GC and event-loop observers) are process-wide, and a process
 * kept across runs measured differently depending on whether it was started first.
 * Prints the median req/s of each, the spread of the runs, and the cost against the target; and,
 * on Linux, the server's CPU time per request (user + system, from /proc), which moves far less
 * than req/s when other work shares the machine.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { alternate, formatRatio, median, ratio } from "./alternate.js";
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

interface Server {
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system) process `pid` has used so far, from /proc/<pid>/stat; undefined off Linux. */
async function cpuSeconds(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // After the command name in parentheses: state is field 3, utime 14 and stime 15 of the line.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** `tidings serve` on a free port; resolves once its banner is printed. */
async function serve(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, [CLI, "serve"], {
    env: { PATH: process.env.PATH ?? "", HOST, PORT: "0", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  };
  let output = "";
  try {
    const origin = await new Promise<string>((resolve, reject) => {
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
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${child.exitCode}:\n${output}`));
      });
    });
    return { origin, pid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** (max − min) / median, as a percentage: how far apart the runs of one side were. */
function spread(values: number[]): string {
  return `${(((Math.max(...values) - Math.min(...values)) / median(values)) * 100).toFixed(1)}%`;
}

const dataDir = await mkdtemp(path.join(tmpdir(), "tidings-bench-metrics-"));
const METRICS_TOKEN = "bench-metrics-token-0123456789";
// All load comes from one IP: a config budget no run reaches, so the limiter is consulted but never refuses.
const common = { DATA_DIR: dataDir, TIDINGS_RATE_LIMIT_CONFIG: "1000000000/60" };
const sides = { off: { METRICS_ENABLED: "0" }, on: { METRICS_ENABLED: "1", METRICS_TOKEN } };
let server: Server | undefined;
let scraper: NodeJS.Timeout | undefined;
let scrapes = 0;

/** One measured run on a fresh process of `side`, after a warm-up; scraped meanwhile when metrics are on. */
async function measure(side: keyof typeof sides): Promise<{ rps: number; cpuPerRequest: number | undefined }> {
  server = await serve({ ...common, ...sides[side] });
  const { origin } = server;
  const url = `${origin}/api/v1/public/config/app_demo`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const scrape = async () => {
    const answer = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    if (!answer.ok) throw new Error(`/metrics answered ${answer.status}`);
    await answer.text();
    scrapes++;
  };
  await load(url, WARMUP_SECONDS);
  if (side === "on") scraper = setInterval(() => void scrape().catch((error: unknown) => console.error(error)), SCRAPE_INTERVAL_MS);
  const cpuBefore = await cpuSeconds(server.pid);
  const result = await load(url, seconds);
  const cpuAfter = await cpuSeconds(server.pid);
  clearInterval(scraper);
  await server.stop();
  server = undefined;
  const cpuPerRequest = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / result.requests.total;
  return { rps: result.requests.average, cpuPerRequest };
}

try {
  // A first start migrates the database and seeds the demo app; every measured process finds both done.
  await (await serve(common)).stop();
  const cpu: Record<keyof typeof sides, number[]> = { off: [], on: [] };
  const sideRun = (side: keyof typeof sides) => async () => {
    const run = await measure(side);
    if (run.cpuPerRequest !== undefined) cpu[side].push(run.cpuPerRequest);
    return run.rps;
  };
  const runs = await alternate({ off: sideRun("off"), on: sideRun("on") }, rounds);
  const offRuns = runs.off;
  const onRuns = runs.on;
  const kept = ratio(runs, "on", "off");

  const offMedian = median(offRuns);
  const onMedian = median(onRuns);
  const cost = 1 - kept.median;
  console.log(`${CONNECTIONS} connections, ${rounds} alternated rounds of ${seconds}s per side, each on a fresh process after a ${WARMUP_SECONDS}s warm-up, loopback`);
  console.log(`${"public config".padEnd(24)} ${"median req/s".padStart(13)} ${"spread".padStart(8)}  runs`);
  console.log(`${"metrics off".padEnd(24)} ${offMedian.toFixed(0).padStart(13)} ${spread(offRuns).padStart(8)}  ${offRuns.map((r) => r.toFixed(0)).join(", ")}`);
  console.log(`${"metrics on".padEnd(24)} ${onMedian.toFixed(0).padStart(13)} ${spread(onRuns).padStart(8)}  ${onRuns.map((r) => r.toFixed(0)).join(", ")}`);
  console.log(`/metrics scraped ${scrapes} times while measured (every ${SCRAPE_INTERVAL_MS} ms)`);
  console.log(`on/off req/s, median of the rounds' ratios: ${formatRatio(kept)}; cost of metrics ${(cost * 100).toFixed(1)}%`);
  console.log(`target: cost < ${(TARGET_COST * 100).toFixed(0)}%: ${cost < TARGET_COST ? "PASS" : "ABOVE"}`);
  const offCpu = cpu.off;
  const onCpu = cpu.on;
  if (offCpu.length === rounds && onCpu.length === rounds) {
    const micros = (values: number[]) => values.map((c) => (c * 1e6).toFixed(1)).join(", ");
    console.log(`server CPU per request (user + system), median µs: off ${(median(offCpu) * 1e6).toFixed(1)} (${micros(offCpu)}), on ${(median(onCpu) * 1e6).toFixed(1)} (${micros(onCpu)})`);
    console.log(`CPU cost of metrics (on/off - 1): ${((median(onCpu) / median(offCpu) - 1) * 100).toFixed(1)}%`);
  }
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  clearInterval(scraper);
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
}
