/**
 * Feature requests at scale: 100k requests in one app, on SQLite and, when BENCH_DATABASE_URL
 * names a PostgreSQL server, on PostgreSQL too (in a schema of its own, dropped afterwards), each
 * figure printed side by side. Measures a personalised page of 50 against a bare Fastify route
 * serving the same JSON, the same page for 10,000 distinct identified users (signed X-User-Hash)
 * taking turns, the comments of a request, search latency (p50/p95 over 400 distinct
 * queries), the `top` and `trending` pages computed right after a vote, vote throughput with
 * 10 and 100 clients, and comments and proposals posted by many callers. Every throughput is loaded in alternated rounds (see alternate.ts): each
 * ratio is the median of its rounds with their spread. The vote target is the server's capacity,
 * so it is judged on the saturated run (100 clients); with 10 clients each one waits for its
 * vote's commit before sending the next, so that line measures latency as much as capacity. When
 * a Redis is reachable, a second instance on the SQLite database with REDIS_URL set serves the
 * same page, as each of several instances would (shared cache and rate limits in Redis).
 */
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, data, loadConfig, migrateToLatest, openDatabase, systemClock, type Db } from "@tidings/server";
import Fastify from "fastify";
import { CompiledQuery } from "kysely";
import { alternate, formatRatio, median, ratio, type Ratio } from "./alternate.js";
import { CONNECTIONS, load } from "./load.js";
import { benchRedis, redisSkipReason } from "./redis.js";

const HOST = "127.0.0.1";
const COUNT = Number(process.env.BENCH_REQUESTS ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const postgresUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;
const WORDS = ["dark", "mode", "export", "sync", "offline", "widget", "calendar", "share", "import", "theme", "search", "filter", "reminder", "backup", "watch"];
/** Distinct searches per engine (the first 20 warm up and are not counted). */
const SEARCHES = 420;
const COMMENTS = 30;
/** Distinct identified users taking turns on the personalised page. */
const IDENTIFIED = 10_000;

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
    TIDINGS_RATE_LIMIT_PUBLIC_READ: unlimited,
    TIDINGS_RATE_LIMIT_PUBLIC_WRITE: unlimited,
  }),
  port: 0,
  host: HOST,
};
const bare = Fastify({ logger: false });
const redis = benchRedis();
let withRedis: Awaited<ReturnType<typeof buildApp>> | undefined;
let redisSkipped = redis === null ? "BENCH_REDIS_URL=off" : "";

/** Connections for the saturated vote run: enough that the server, not sync latency, is the limit. */
const SATURATING_CONNECTIONS = 100;

/** One engine's server, seeded. */
interface Engine {
  name: "SQLite" | "PostgreSQL";
  app: Awaited<ReturnType<typeof buildApp>>;
  base: string;
  appId: string;
  appKey: string;
  /** What the host backend signs its users' hashes with. */
  signingSecret: string;
  /** The 100 newest requests, oldest first. */
  firstIds: string[];
  close(): Promise<void>;
}

/** A server on SQLite in the bench's data folder, or on a fresh schema of the PostgreSQL at `url`. */
async function startEngine(url: string | undefined): Promise<Engine> {
  let db: Db | undefined;
  let dropSchema = async () => {};
  if (url !== undefined) {
    const schema = `tidings_bench_${process.pid}`;
    const admin = openDatabase(url);
    await admin.kysely.schema.createSchema(schema).execute();
    dropSchema = async () => {
      await admin.kysely.schema.dropSchema(schema).cascade().execute();
      await admin.destroy();
    };
    db = openDatabase(url, { schema });
    await migrateToLatest(db, { schema });
  }
  const app = await buildApp(config, { logger: false, ...(db === undefined ? {} : { db }) });
  const started = Date.now();
  const kysely = app.ctx.db.kysely;
  const { appId, appKey, signingSecret, firstIds } = await kysely.transaction().execute(async (trx) => {
    const { workspace } = await data.createWorkspace(trx, systemClock, { name: "Bench", slug: "bench" }, null);
    // Proposals count against the monthly quota: a few seconds of load send thousands.
    await trx.updateTable("workspaces").set({ monthlySubmissionQuota: null }).where("id", "=", workspace.id).execute();
    const { row, signingSecret } = await data.createApp(trx, systemClock, workspace.id, { name: "Bench app", moderationPolicy: "none" });
    const inputs = Array.from({ length: COUNT }, (_, i) =>
      data.importedRequest(row.id, `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} request ${i}`, `Please add ${WORDS[(i * 3) % WORDS.length]} support (${i}).`),
    );
    const created = await data.createFeatureRequests(trx, systemClock, app.ctx.db.dialect, row.id, inputs);
    return { appId: row.id, appKey: row.appKey, signingSecret, firstIds: created.slice(-100).map((r) => r.id) };
  });
  const name = url === undefined ? "SQLite" : "PostgreSQL";
  console.log(`${name}: seeded ${COUNT} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // With statistics, as a running database has them (autovacuum analyzes a table within a minute
  // of a bulk write); without, the planner guesses a new table's sizes and picks other plans.
  if (url !== undefined) await kysely.executeQuery(CompiledQuery.raw("analyze"));
  const base = await app.listen({ port: 0, host: HOST });
  // The viewer has voted on a few requests of the first page, so the page is really personalised.
  for (const id of firstIds.slice(-5)) await post(`${base}/api/v1/feature-requests/${id}/vote`, "bench-user", {});
  // A discussion on the newest request.
  for (let i = 0; i < COMMENTS; i++) {
    await post(`${base}/api/v1/feature-requests/${firstIds.at(-1)}/comments`, `commenter-${i % 7}`, { body: `Comment ${i}: we need this for our team.` });
  }
  return {
    name,
    app,
    base,
    appId,
    appKey,
    signingSecret,
    firstIds,
    close: async () => {
      await app.close();
      await db?.destroy();
      await dropSchema();
    },
  };
}

async function post(url: string, token: string, body: object): Promise<void> {
  const res = await fetch(url, { method: "POST", headers: { "x-user-token": token, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  await res.arrayBuffer();
}

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

/** Requests per second of one autocannon run. */
const rate = (url: string, options: Parameters<typeof load>[2] = {}) => async () => (await load(url, seconds, options)).requests.average;

const engines: Engine[] = [];
try {
  engines.push(await startEngine(undefined));
  if (postgresUrl !== undefined) engines.push(await startEngine(postgresUrl));
  const [lite, pg] = engines as [Engine, Engine | undefined];
  const token = "bench-user";
  const listUrl = (e: Engine) => `${e.base}/api/v1/feature-requests?appKey=${e.appKey}&limit=50`;
  const page = await (await fetch(listUrl(lite), { headers: { "x-user-token": token } })).json();
  bare.get("/page", async () => page);
  // The same vote requests, answered without touching a database: what the machine's HTTP costs.
  bare.post("/api/v1/feature-requests/:id/vote", async () => ({ voted: true, voteCount: 1 }));
  const bareBase = await bare.listen({ port: 0, host: HOST });
  const bareUrl = `${bareBase}/page`;
  // The same page from an instance with REDIS_URL, on the SQLite database.
  let redisListUrl: string | undefined;
  if (redis !== null) {
    try {
      withRedis = await buildApp({ ...config, redisUrl: redis.url }, { logger: false, cachePrefix: redis.cachePrefix });
      redisListUrl = `${await withRedis.listen({ port: 0, host: HOST })}/api/v1/feature-requests?appKey=${lite.appKey}&limit=50`;
    } catch (error) {
      redisSkipped = redisSkipReason(error);
    }
  }
  const personal = { headers: { "x-user-token": token } };
  for (const e of engines) await load(listUrl(e), 1, personal);
  await load(bareUrl, 1);
  if (redisListUrl !== undefined) await load(redisListUrl, 1, personal);
  const pages = await alternate({
    sqlite: rate(listUrl(lite), personal),
    ...(pg === undefined ? {} : { postgres: rate(listUrl(pg), personal) }),
    bare: rate(bareUrl),
    ...(redisListUrl === undefined ? {} : { redis: rate(redisListUrl, personal) }),
  } as Record<"sqlite" | "postgres" | "bare" | "redis", () => Promise<number>>);
  if (withRedis !== undefined) {
    // Closed before the votes below, so their figures stay single-instance ones.
    await withRedis.close();
    withRedis = undefined;
  }

  // The same page for many distinct identified users: each request from the next of IDENTIFIED
  // users signed by the host backend (X-User-Hash), rotating over the board, as a busy host app's
  // users open it; each user's first visit records them, later ones find them known.
  const identifiedLoad = { requests: [{ setupRequest: fileURLToPath(new URL("../identified-page-request.cjs", import.meta.url)) as never }] };
  const identifiedRate = (e: Engine) => async () => {
    // Read by the load generator's thread when it starts.
    process.env.BENCH_IDENTIFIED_PAGE = JSON.stringify({
      path: `/api/v1/feature-requests?appKey=${e.appKey}&limit=50`,
      secret: e.signingSecret,
      users: IDENTIFIED,
      prefix: "member",
    });
    return (await load(listUrl(e), seconds, identifiedLoad)).requests.average;
  };
  const identified = await alternate({
    sqlite: identifiedRate(lite),
    ...(pg === undefined ? {} : { postgres: identifiedRate(pg) }),
  } as Record<"sqlite" | "postgres", () => Promise<number>>);

  // The comments of the discussed request, as a viewer opening it reads them.
  const commentsUrl = (e: Engine) => `${e.base}/api/v1/feature-requests/${e.firstIds.at(-1)}/comments`;
  // The request itself, as the same viewer opening it reads it: taking turns with its comments,
  // since a page of comments also looks the request up and the detail should cost no more.
  const detailUrl = (e: Engine) => `${e.base}/api/v1/feature-requests/${e.firstIds.at(-1)}`;
  for (const e of engines) await load(commentsUrl(e), 1, personal);
  for (const e of engines) await load(detailUrl(e), 1, personal);
  const comments = await alternate({
    sqlite: rate(commentsUrl(lite), personal),
    sqliteDetail: rate(detailUrl(lite), personal),
    ...(pg === undefined ? {} : { postgres: rate(commentsUrl(pg), personal), postgresDetail: rate(detailUrl(pg), personal) }),
  } as Record<"sqlite" | "postgres" | "sqliteDetail" | "postgresDetail", () => Promise<number>>);

  // Search latency: sequential personalised searches (no shared cache), timed one by one, the
  // engines taking turns by thirds. Every query is different, so none is answered from the
  // shared cache of anonymous pages.
  const searchSamples = new Map<Engine, number[]>(engines.map((e) => [e, []]));
  let searchRound = 0;
  const searchThird = (e: Engine) => async () => {
    const from = (searchRound++ % 3) * (SEARCHES / 3);
    for (let i = from; i < from + SEARCHES / 3; i++) {
      const q = encodeURIComponent(`${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]!.slice(0, 3)} ${i % 97}`);
      const t0 = performance.now();
      const res = await fetch(`${e.base}/api/v1/feature-requests?appKey=${e.appKey}&q=${q}&limit=50`, { headers: { "x-user-token": `searcher-${i % 20}` } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`search answered ${res.status}`);
      if (i >= 20) searchSamples.get(e)!.push(performance.now() - t0);
    }
    return 0;
  };
  await alternate(Object.fromEntries(engines.map((e) => [e.name, searchThird(e)])));

  // A vote drops the app's cached lists, so the next `top` or `trending` page is computed anew:
  // what a busy board pays for its ordered pages.
  const afterVote = async (e: Engine, sort: string) => {
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      await post(`${e.base}/api/v1/feature-requests/${e.firstIds[i % e.firstIds.length]}/vote`, `${sort}-voter-${i}`, {});
      const t0 = performance.now();
      const res = await fetch(`${e.base}/api/v1/feature-requests?appKey=${e.appKey}&sort=${sort}&limit=50`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${sort} page answered ${res.status}`);
      times.push(performance.now() - t0);
    }
    return percentile(times.sort((a, b) => a - b), 50);
  };
  const topAfterVote = new Map<Engine, number>();
  const trendingAfterVote = new Map<Engine, number>();
  for (const e of engines) topAfterVote.set(e, await afterVote(e, "top"));
  for (const e of engines) trendingAfterVote.set(e, await afterVote(e, "trending"));

  // Vote toggles: each request from a random user on one of the newest requests.
  const voteLoad = { method: "POST" as const, requests: [{ setupRequest: fileURLToPath(new URL("../vote-request.cjs", import.meta.url)) as never }] };
  const voteRate = (e: Engine | null, connections: number) => async () => {
    // Read by the load generator's thread when it starts.
    process.env.BENCH_VOTE_TARGETS = JSON.stringify((e ?? lite).firstIds);
    const url = e === null ? `${bareBase}/api/v1/feature-requests/${lite.firstIds[0]}/vote` : `${e.base}/api/v1/feature-requests/${e.firstIds[0]}/vote`;
    return (await load(url, seconds, { ...voteLoad, connections })).requests.average;
  };
  const votes = await alternate({
    sqlite: voteRate(lite, CONNECTIONS),
    ...(pg === undefined ? {} : { postgres: voteRate(pg, CONNECTIONS) }),
    bare: voteRate(null, CONNECTIONS),
  } as Record<"sqlite" | "postgres" | "bare", () => Promise<number>>);
  // Each vote is answered only after its commit is durable, so each of few clients mostly
  // waits; saturated, with many clients, the server is the limit.
  const saturated = await alternate({
    sqlite: voteRate(lite, SATURATING_CONNECTIONS),
    ...(pg === undefined ? {} : { postgres: voteRate(pg, SATURATING_CONNECTIONS) }),
  } as Record<"sqlite" | "postgres", () => Promise<number>>);
  // Writes that are not votes: comments on the newest requests and proposals, each from one of
  // 5,000 callers, every one acknowledged only once durable.
  const writeLoad = { method: "POST" as const, requests: [{ setupRequest: fileURLToPath(new URL("../write-request.cjs", import.meta.url)) as never }] };
  const writeRate = (e: Engine, kind: "comment" | "proposal") => async () => {
    // Read by the load generator's thread when it starts.
    process.env.BENCH_WRITE = JSON.stringify({ kind, targets: e.firstIds, appKey: e.appKey });
    return (await load(`${e.base}/api/v1/feature-requests`, seconds, writeLoad)).requests.average;
  };
  const writes = await alternate({
    sqliteComment: writeRate(lite, "comment"),
    ...(pg === undefined ? {} : { postgresComment: writeRate(pg, "comment") }),
    sqliteProposal: writeRate(lite, "proposal"),
    ...(pg === undefined ? {} : { postgresProposal: writeRate(pg, "proposal") }),
  } as Record<"sqliteComment" | "postgresComment" | "sqliteProposal" | "postgresProposal", () => Promise<number>>);
  const syncMs = await fdatasyncLatency(dataDir);
  const stored = async (e: Engine) =>
    Number(
      (
        await e.app.ctx.db.kysely
          .selectFrom("featureRequests")
          .select((eb) => eb.fn.sum<number>("voteCount").as("n"))
          .where("appId", "=", e.appId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  const both = pg !== undefined;
  const cell = (value: string | number | undefined) => (typeof value === "number" ? value.toFixed(0) : (value ?? "-")).padStart(11);
  const line = (measure: string, sqlite: string | number, postgres: string | number | undefined, note = "") =>
    console.log(`${measure.padEnd(42)} ${cell(sqlite)} ${both ? cell(postgres) : ""}  ${note}`);
  const verdict = (ok: boolean) => (ok ? "PASS" : "BELOW");
  const pass = (r: Ratio, target: number) => `${formatRatio(r)} (target >= ${target.toFixed(2)}x ${verdict(r.median >= target)})`;
  const ms = (value: number) => value.toFixed(1);

  console.log(`\n${CONNECTIONS} connections unless stated, ${seconds}s per run, ${pages.sqlite.length} alternated rounds (medians; ratios ±spread), loopback, ${COUNT} requests in the app`);
  console.log(`${"measure".padEnd(42)} ${"SQLite".padStart(11)} ${both ? "PostgreSQL".padStart(11) : ""}  ratio / target`);
  line("personalised page of 50 (req/s)", median(pages.sqlite), both ? median(pages.postgres) : undefined, both ? `PG/SQLite ${pass(ratio(pages, "postgres", "sqlite"), 0.8)}` : "");
  line(
    `same page, ${IDENTIFIED} identified users (req/s)`,
    median(identified.sqlite),
    both ? median(identified.postgres) : undefined,
    both ? `PG/SQLite ${pass(ratio(identified, "postgres", "sqlite"), 0.8)}` : "",
  );
  line("bare route, same JSON (req/s)", median(pages.bare), undefined);
  line("ratio list/bare", formatRatio(ratio(pages, "sqlite", "bare")), both ? formatRatio(ratio(pages, "postgres", "bare")) : undefined, "target >= 0.30x");
  if (pages.redis === undefined) line("same page, REDIS_URL set", "skipped", undefined, `(${redisSkipped})`);
  else line("same page, REDIS_URL set (req/s)", median(pages.redis), undefined, `${formatRatio(ratio(pages, "redis", "sqlite"))} the single instance`);
  line(`comments of a request, ${COMMENTS} (req/s)`, median(comments.sqlite), both ? median(comments.postgres) : undefined, both ? `PG/SQLite ${pass(ratio(comments, "postgres", "sqlite"), 0.8)}` : "");
  line("the request itself, by id (req/s)", median(comments.sqliteDetail), both ? median(comments.postgresDetail) : undefined, both ? `PG/SQLite ${formatRatio(ratio(comments, "postgresDetail", "sqliteDetail"))}` : "");
  line(
    "ratio request/its comments",
    pass(ratio(comments, "sqliteDetail", "sqlite"), 1),
    both ? pass(ratio(comments, "postgresDetail", "postgres"), 1) : undefined,
  );
  const p = (e: Engine | undefined, q: number) => (e === undefined ? undefined : percentile(searchSamples.get(e)!.sort((a, b) => a - b), q));
  line("search p50 (ms)", ms(p(lite, 50)!), both ? ms(p(pg, 50)!) : undefined);
  line(
    "search p95 (ms)",
    ms(p(lite, 95)!),
    both ? ms(p(pg, 95)!) : undefined,
    `SQLite < 10 ms ${verdict(p(lite, 95)! < 10)}${both ? `, PostgreSQL < 15 ms ${verdict(p(pg, 95)! < 15)}` : ""}`,
  );
  line("top page after a vote, p50 (ms)", ms(topAfterVote.get(lite)!), both ? ms(topAfterVote.get(pg)!) : undefined, "(uncached: the vote dropped it)");
  line("trending page after a vote, p50 (ms)", ms(trendingAfterVote.get(lite)!), both ? ms(trendingAfterVote.get(pg)!) : undefined, "(uncached: the vote dropped it)");
  line(`vote toggles, ${CONNECTIONS} connections (req/s)`, median(votes.sqlite), both ? median(votes.postgres) : undefined, both ? `PG/SQLite ${formatRatio(ratio(votes, "postgres", "sqlite"))}` : "");
  line("bare route, same vote requests (req/s)", median(votes.bare), undefined);
  line("ratio votes/bare", formatRatio(ratio(votes, "sqlite", "bare")), both ? formatRatio(ratio(votes, "postgres", "bare")) : undefined);
  const sat = (values: number[] | undefined, target: number) => (values === undefined ? "" : `>= ${target}/s ${verdict(median(values) >= target)}`);
  line(
    `vote toggles, ${SATURATING_CONNECTIONS} connections (req/s)`,
    median(saturated.sqlite),
    both ? median(saturated.postgres) : undefined,
    `SQLite ${sat(saturated.sqlite, 3000)}${both ? `, PostgreSQL ${sat(saturated.postgres, 2000)}, PG/SQLite ${pass(ratio(saturated, "postgres", "sqlite"), 0.8)}` : ""}`,
  );
  line("comments posted (req/s)", median(writes.sqliteComment), both ? median(writes.postgresComment) : undefined, both ? `PG/SQLite ${pass(ratio(writes, "postgresComment", "sqliteComment"), 0.8)}` : "");
  line("proposals (req/s)", median(writes.sqliteProposal), both ? median(writes.postgresProposal) : undefined, both ? `PG/SQLite ${pass(ratio(writes, "postgresProposal", "sqliteProposal"), 0.8)}` : "");
  line("fdatasync of a 4 KB append, p50 (ms)", syncMs.toFixed(2), undefined, "(every SQLite vote waits for one)");
  line("votes stored after the run", await stored(lite), both ? await stored(pg) : undefined);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await Promise.all([bare.close(), withRedis?.close(), ...engines.map((e) => e.close())]);
  await rm(dataDir, { recursive: true, force: true });
}
