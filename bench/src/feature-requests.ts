/**
 * Feature requests at scale: 100k requests in one app. Compares a personalised page of 50 with a
 * bare Fastify route serving the same JSON, measures search latency (p95), the `top` and
 * `trending` pages computed right after a vote, and vote throughput on SQLite, all in one run.
 * The vote target (3k/s) is the server's capacity, so it is judged on the saturated run (100
 * clients). With 10 clients each one waits for its vote's commit and fdatasync before sending the
 * next, so that line measures latency as much as capacity; it is printed next to a bare route
 * answering the same requests and the disk's fdatasync latency. When a Redis is reachable, a
 * second instance on the same database with REDIS_URL set serves the same page, as each of
 * several instances would (shared cache and rate limits in Redis).
 */
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, data, loadConfig, systemClock } from "@tidings/server";
import Fastify from "fastify";
import { CONNECTIONS, load } from "./load.js";
import { benchRedis, redisSkipReason } from "./redis.js";

const HOST = "127.0.0.1";
const COUNT = Number(process.env.BENCH_REQUESTS ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const WORDS = ["dark", "mode", "export", "sync", "offline", "widget", "calendar", "share", "import", "theme", "search", "filter", "reminder", "backup", "watch"];

const dataDir = await mkdtemp(path.join(tmpdir(), "tidings-bench-fr-"));
// One IP sends everything: lift the per-IP budgets so the limiter is consulted but never refuses.
const unlimited = "1000000000/60";
const config = {
  ...loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    TIDINGS_DEMO: "0",
    TIDINGS_RATE_LIMIT_SEARCH: unlimited,
    TIDINGS_RATE_LIMIT_LIST: unlimited,
    TIDINGS_RATE_LIMIT_VOTE: unlimited,
  }),
  port: 0,
  host: HOST,
};
const tidings = await buildApp(config, { logger: false });
const bare = Fastify({ logger: false });
const redis = benchRedis();
let withRedis: Awaited<ReturnType<typeof buildApp>> | undefined;
let redisSkipped = redis === null ? "BENCH_REDIS_URL=off" : "";

/** Connections for the saturated vote run: enough that the server, not sync latency, is the limit. */
const SATURATING_CONNECTIONS = 100;

/** Median time of an fdatasync after a 4 KB append in `dir`: what each durable commit waits for. */
async function fdatasyncLatency(dir: string): Promise<number> {
  const handle = await open(path.join(dir, "sync-probe"), "a");
  const samples: number[] = [];
  try {
    for (let i = 0; i < 200; i++) {
      await handle.write(Buffer.alloc(4096, i));
      const t0 = performance.now();
      await handle.datasync();
      samples.push(performance.now() - t0);
    }
  } finally {
    await handle.close();
  }
  return percentile(samples.sort((a, b) => a - b), 50);
}

/** Percentile of sorted samples. */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

try {
  const db = tidings.ctx.db.kysely;
  const started = Date.now();
  const { appId, appKey, firstIds } = await db.transaction().execute(async (trx) => {
    const { workspace } = await data.createWorkspace(trx, systemClock, { name: "Bench", slug: "bench" }, null);
    const { row } = await data.createApp(trx, systemClock, workspace.id, { name: "Bench app", moderationPolicy: "none" });
    const inputs = Array.from({ length: COUNT }, (_, i) =>
      data.importedRequest(row.id, `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} request ${i}`, `Please add ${WORDS[(i * 3) % WORDS.length]} support (${i}).`),
    );
    const created = await data.createFeatureRequests(trx, systemClock, tidings.ctx.db.dialect, row.id, inputs);
    const ids = created.slice(-100).map((r) => r.id);
    return { appId: row.id, appKey: row.appKey, firstIds: ids };
  });
  console.log(`seeded ${COUNT} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const base = await tidings.listen({ port: 0, host: HOST });
  const token = "bench-user";
  // The viewer has voted on a few requests of the first page, so the page is really personalised.
  for (const id of firstIds.slice(-5)) {
    await fetch(`${base}/api/v1/feature-requests/${id}/vote`, { method: "POST", headers: { "x-user-token": token, "content-type": "application/json" }, body: "{}" });
  }
  const listUrl = `${base}/api/v1/feature-requests?appKey=${appKey}&limit=50`;
  const page = await (await fetch(listUrl, { headers: { "x-user-token": token } })).json();
  bare.get("/page", async () => page);
  // The same vote requests, answered without touching a database: what the machine's HTTP costs.
  bare.post("/api/v1/feature-requests/:id/vote", async () => ({ voted: true, voteCount: 1 }));
  const bareBase = await bare.listen({ port: 0, host: HOST });
  const bareUrl = `${bareBase}/page`;

  await load(listUrl, 1, { headers: { "x-user-token": token } });
  await load(bareUrl, 1);
  const list = await load(listUrl, seconds, { headers: { "x-user-token": token } });
  const plain = await load(bareUrl, seconds);
  // The same page from an instance with REDIS_URL, on the same database.
  let redisList: Awaited<ReturnType<typeof load>> | undefined;
  if (redis !== null) {
    try {
      withRedis = await buildApp({ ...config, redisUrl: redis.url }, { logger: false, cachePrefix: redis.cachePrefix });
    } catch (error) {
      redisSkipped = redisSkipReason(error);
    }
  }
  if (withRedis !== undefined) {
    const redisListUrl = `${await withRedis.listen({ port: 0, host: HOST })}/api/v1/feature-requests?appKey=${appKey}&limit=50`;
    await load(redisListUrl, 1, { headers: { "x-user-token": token } });
    redisList = await load(redisListUrl, seconds, { headers: { "x-user-token": token } });
    // Closed before the votes below, so their figures stay single-instance ones.
    await withRedis.close();
    withRedis = undefined;
  }

  // Search latency: sequential personalised searches (no shared cache), timed one by one.
  // Every query is different, so none is answered from the shared cache of anonymous pages.
  const samples: number[] = [];
  for (let i = 0; i < 400; i++) {
    const q = encodeURIComponent(`${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]!.slice(0, 3)} ${i % 97}`);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/feature-requests?appKey=${appKey}&q=${q}&limit=50`, { headers: { "x-user-token": `searcher-${i % 20}` } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`search answered ${res.status}`);
    if (i >= 20) samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);

  // A vote drops the app's cached lists, so the next `top` or `trending` page is computed anew:
  // what a busy board pays for its ordered pages.
  const afterVote = async (sort: string) => {
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      const voted = await fetch(`${base}/api/v1/feature-requests/${firstIds[i % firstIds.length]}/vote`, {
        method: "POST",
        headers: { "x-user-token": `${sort}-voter-${i}`, "content-type": "application/json" },
        body: "{}",
      });
      if (!voted.ok) throw new Error(`vote answered ${voted.status}`);
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v1/feature-requests?appKey=${appKey}&sort=${sort}&limit=50`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${sort} page answered ${res.status}`);
      times.push(performance.now() - t0);
    }
    return percentile(times.sort((a, b) => a - b), 50);
  };
  const topAfterVote = await afterVote("top");
  const trendingAfterVote = await afterVote("trending");

  // Vote toggles: each request from a random user on one of the newest requests.
  process.env.BENCH_VOTE_TARGETS = JSON.stringify(firstIds);
  const voteLoad = { method: "POST" as const, requests: [{ setupRequest: fileURLToPath(new URL("../vote-request.cjs", import.meta.url)) as never }] };
  const voteUrl = `${base}/api/v1/feature-requests/${firstIds[0]}/vote`;
  const votes = await load(voteUrl, seconds, voteLoad);
  const bareVotes = await load(`${bareBase}/api/v1/feature-requests/${firstIds[0]}/vote`, seconds, voteLoad);
  // Each vote is answered only after an fdatasync of the WAL (run off the event loop), so each
  // of few clients mostly waits; saturated, with many clients, the server is the limit.
  const saturated = await load(voteUrl, seconds, { ...voteLoad, connections: SATURATING_CONNECTIONS });
  const syncMs = await fdatasyncLatency(dataDir);
  const stored = await db
    .selectFrom("featureRequests")
    .select((eb) => eb.fn.sum<number>("voteCount").as("n"))
    .where("appId", "=", appId)
    .executeTakeFirstOrThrow();

  const ratio = list.requests.average / plain.requests.average;
  console.log(`${CONNECTIONS} connections, ${seconds}s measured per load, loopback, SQLite, ${COUNT} requests in the app`);
  console.log(`${"measure".padEnd(40)} ${"value".padStart(10)}  target`);
  console.log(`${"personalised page of 50 (req/s)".padEnd(40)} ${list.requests.average.toFixed(0).padStart(10)}`);
  console.log(`${"bare route, same JSON (req/s)".padEnd(40)} ${plain.requests.average.toFixed(0).padStart(10)}`);
  console.log(`${"ratio list/bare".padEnd(40)} ${ratio.toFixed(2).padStart(10)}  >= 0.30x ${ratio >= 0.3 ? "PASS" : "BELOW"}`);
  if (redisList === undefined) {
    console.log(`${"same page, REDIS_URL set".padEnd(40)} ${"skipped".padStart(10)}  (${redisSkipped})`);
  } else {
    const vsSingle = (redisList.requests.average / list.requests.average).toFixed(2);
    console.log(`${"same page, REDIS_URL set (req/s)".padEnd(40)} ${redisList.requests.average.toFixed(0).padStart(10)}  (${vsSingle}x the single instance)`);
  }
  const p95 = percentile(samples, 95);
  console.log(`${"search p50 / p95 (ms)".padEnd(40)} ${`${percentile(samples, 50).toFixed(1)} / ${p95.toFixed(1)}`.padStart(10)}  p95 < 10 ms ${p95 < 10 ? "PASS" : "BELOW"}`);
  const fewClients = `(${(votes.latency.average).toFixed(1)} ms per vote, commit and fdatasync included)`;
  console.log(`${`vote toggles, ${CONNECTIONS} connections (req/s)`.padEnd(40)} ${votes.requests.average.toFixed(0).padStart(10)}  ${fewClients}`);
  console.log(`${"bare route, same vote requests (req/s)".padEnd(40)} ${bareVotes.requests.average.toFixed(0).padStart(10)}`);
  console.log(`${"ratio votes/bare".padEnd(40)} ${(votes.requests.average / bareVotes.requests.average).toFixed(2).padStart(10)}`);
  console.log(`${"top page after a vote, p50 (ms)".padEnd(40)} ${topAfterVote.toFixed(1).padStart(10)}  (uncached: the vote dropped it)`);
  console.log(`${"trending page after a vote, p50 (ms)".padEnd(40)} ${trendingAfterVote.toFixed(1).padStart(10)}  (uncached: the vote dropped it)`);
  const saturatedLine = `vote toggles, ${SATURATING_CONNECTIONS} connections (req/s)`;
  console.log(`${saturatedLine.padEnd(40)} ${saturated.requests.average.toFixed(0).padStart(10)}  >= 3000/s ${saturated.requests.average >= 3000 ? "PASS" : "BELOW"}`);
  console.log(`${"fdatasync of a 4 KB append, p50 (ms)".padEnd(40)} ${syncMs.toFixed(2).padStart(10)}  (every vote waits for one)`);
  console.log(`(votes stored after the run: ${Number(stored.n)})`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await Promise.all([tidings.close(), bare.close(), withRedis?.close()]);
  await rm(dataDir, { recursive: true, force: true });
}
