/**
 * Boards and tags at scale: on 100k requests (BENCH_REQUESTS) in one app, spread over three
 * boards (70, 20 and 10 %) and tagged (a tag on one request in five, another on one in two
 * hundred), what a page filtered by board or by tag costs against the unfiltered page, on SQLite
 * and, when BENCH_DATABASE_URL names a PostgreSQL server, on PostgreSQL (in a schema of its own,
 * dropped afterwards), side by side. Target: at most 1.2x the unfiltered page.
 *
 * Two measures, every side alternated with the others (see alternate.ts):
 * - pages of 50 over HTTP, as a signed-in user with a proposal of their own waiting for review
 *   sees them: computed for them on every request (the shared anonymous page is cached), with the
 *   total counted once per 30 s as the server does. Cost ratio = unfiltered req/s / filtered req/s.
 * - the same pages computed cold in the process, their count included (what the first visitor
 *   after a change pays), `newest` and `top`, p50 of sequential calls.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp, data, loadConfig, migrateToLatest, openDatabase, systemClock, type Db } from "@tidings/server";
import { CompiledQuery } from "kysely";
import { alternate, formatRatio, median, ratio, type Ratio } from "./alternate.js";
import { CONNECTIONS, load } from "./load.js";

const HOST = "127.0.0.1";
const COUNT = Number(process.env.BENCH_REQUESTS ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const postgresUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;
/** The target: a filtered page costs at most this many times the unfiltered one. */
const TARGET = 1.2;
/** Cold pages computed per side and round. */
const COLD_CALLS = 40;
const VIEWER = "bench-organiser";

const dataDir = await mkdtemp(path.join(tmpdir(), "tidings-bench-org-"));
// One IP sends everything: lift the per-IP budgets so the limiter is consulted but never refuses.
const unlimited = "1000000000/60";
const config = {
  ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", TIDINGS_DEMO: "0", TIDINGS_RATE_LIMIT_LIST: unlimited, TIDINGS_RATE_LIMIT_PUBLIC_READ: unlimited }),
  port: 0,
  host: HOST,
};

/** The filters compared, as query strings of the public listing and as the listing's own query. */
type Side = "all" | "board" | "tag" | "rareTag";
const SIDES: Side[] = ["all", "board", "tag", "rareTag"];
const LABEL: Record<Side, string> = { all: "unfiltered", board: "board (1 in 5)", tag: "tag (1 in 5)", rareTag: "tag (1 in 200)" };

interface Engine {
  name: "SQLite" | "PostgreSQL";
  app: Awaited<ReturnType<typeof buildApp>>;
  base: string;
  appId: string;
  appKey: string;
  boardId: string;
  tagIds: { tag: string; rareTag: string };
  close(): Promise<void>;
}

async function startEngine(url: string | undefined): Promise<Engine> {
  let db: Db | undefined;
  let dropSchema = async () => {};
  if (url !== undefined) {
    const schema = `tidings_bench_org_${process.pid}`;
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
  const dialect = app.ctx.db.dialect;
  const seeded = await kysely.transaction().execute(async (trx) => {
    const { workspace } = await data.createWorkspace(trx, systemClock, { name: "Bench", slug: "bench" }, null);
    const { row } = await data.createApp(trx, systemClock, workspace.id, { name: "Organised app" });
    const main = (await trx.selectFrom("boards").select("id").where("appId", "=", row.id).executeTakeFirstOrThrow()).id;
    const bugs = (await data.createBoard(trx, systemClock, row.id, { name: "Bugs" })).id;
    const integrations = (await data.createBoard(trx, systemClock, row.id, { name: "Integrations" })).id;
    const tag = (await data.createTag(trx, systemClock, row.id, { name: "UI" })).id;
    const rareTag = (await data.createTag(trx, systemClock, row.id, { name: "Accessibility" })).id;
    const inputs = Array.from({ length: COUNT }, (_, i) => ({
      ...data.importedRequest(row.id, `Request ${i}`, `Please add support for this (${i}).`),
      boardId: i % 10 < 7 ? main : i % 10 < 9 ? bugs : integrations,
      importedVotes: (i * 7919) % 50,
    }));
    const created = await data.createFeatureRequests(trx, systemClock, dialect, row.id, inputs);
    // Tags by the tens, so they fall on every board alike (boards go by the last digit).
    const links = created.flatMap((r, i) => [
      ...(Math.floor(i / 10) % 5 === 0 ? [{ featureRequestId: r.id, tagId: tag, createdAt: r.createdAt }] : []),
      ...(Math.floor(i / 10) % 200 === 17 ? [{ featureRequestId: r.id, tagId: rareTag, createdAt: r.createdAt }] : []),
    ]);
    for (let i = 0; i < links.length; i += 500) await trx.insertInto("featureRequestTags").values(links.slice(i, i + 500)).execute();
    // The viewer has a proposal waiting for review: their pages are computed for them.
    const viewer = await data.ensureEndUser(trx, systemClock, row.id, VIEWER);
    await data.createFeatureRequests(trx, systemClock, dialect, row.id, [{ ...data.importedRequest(row.id, "My idea", "Waiting", false), requesterEndUserId: viewer.id }]);
    return { appId: row.id, appKey: row.appKey, boardId: bugs, tagIds: { tag, rareTag } };
  });
  const name = url === undefined ? "SQLite" : "PostgreSQL";
  console.log(`${name}: seeded ${COUNT} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // As autovacuum leaves the tables after a bulk write: vacuumed (pages all-visible) and analyzed.
  if (url !== undefined) await kysely.executeQuery(CompiledQuery.raw("vacuum analyze feature_requests, feature_request_tags"));
  const base = await app.listen({ port: 0, host: HOST });
  return {
    name,
    app,
    base,
    ...seeded,
    close: async () => {
      await app.close();
      await db?.destroy();
      await dropSchema();
    },
  };
}

const filterQuery = (side: Side): string => ({ all: "", board: "&board=bugs", tag: "&tag=ui", rareTag: "&tag=accessibility" })[side];
const listUrl = (e: Engine, side: Side) => `${e.base}/api/v1/feature-requests?appKey=${e.appKey}&limit=50${filterQuery(side)}`;
const personal = { headers: { "x-user-token": VIEWER } };

/** Requests per second of one autocannon run. */
const rate = (url: string) => async () => (await load(url, seconds, personal)).requests.average;

/** The p50 of `COLD_CALLS` pages computed in turn without any cache, in ms. */
const cold = (e: Engine, side: Side, sort: "newest" | "top") => async () => {
  const query: data.ListQuery = {
    appId: e.appId,
    viewerEndUserId: null,
    limit: 50,
    offset: 0,
    cursor: undefined,
    versionId: undefined,
    q: undefined,
    sort,
    ...(side === "board" ? { boardIds: [e.boardId] } : side === "all" ? {} : { tagIds: [e.tagIds[side]] }),
  };
  const times: number[] = [];
  for (let i = 0; i < COLD_CALLS; i++) {
    const t0 = performance.now();
    await data.listFeatureRequests(e.app.ctx.db.kysely, e.app.ctx.db.dialect, systemClock, query);
    times.push(performance.now() - t0);
  }
  return median(times);
};

const engines: Engine[] = [];
try {
  engines.push(await startEngine(undefined));
  if (postgresUrl !== undefined) engines.push(await startEngine(postgresUrl));
  // Every page answers, and a filter shows what it filters.
  for (const e of engines) {
    for (const side of SIDES) {
      const res = await fetch(listUrl(e, side), personal);
      if (!res.ok) throw new Error(`${e.name} ${side}: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { requests: unknown[]; total: number };
      if (body.requests.length === 0) throw new Error(`${e.name} ${side}: an empty page`);
      console.log(`${e.name}: ${LABEL[side]} lists ${body.total} requests`);
      await load(listUrl(e, side), 1, personal);
    }
  }

  const key = (e: Engine, side: Side) => `${e.name}:${side}`;
  const pages = await alternate(Object.fromEntries(engines.flatMap((e) => SIDES.map((side) => [key(e, side), rate(listUrl(e, side))]))));
  const colds = new Map<string, Awaited<ReturnType<typeof alternate>>>();
  for (const sort of ["newest", "top"] as const) {
    colds.set(sort, await alternate(Object.fromEntries(engines.flatMap((e) => SIDES.map((side) => [key(e, side), cold(e, side, sort)])))));
  }

  const [lite, pg] = engines as [Engine, Engine | undefined];
  const both = pg !== undefined;
  const cell = (value: string | number | undefined) => (typeof value === "number" ? value.toFixed(value < 100 ? 2 : 0) : (value ?? "-")).padStart(16);
  const line = (measure: string, sqlite: string | number, postgres: string | number | undefined, note = "") =>
    console.log(`${measure.padEnd(40)} ${cell(sqlite)} ${both ? cell(postgres) : ""}  ${note}`);
  const verdict = (r: Ratio | undefined) => (r === undefined ? "" : r.median <= TARGET ? "PASS" : "ABOVE");
  const verdicts = (a: Ratio, b: Ratio | undefined) => `target <= ${TARGET.toFixed(2)}x: ${verdict(a)}${both ? ` / ${verdict(b)}` : ""}`;

  console.log(
    `\n${COUNT} requests in the app (boards 70/20/10 %, a tag on 1 in 5 and one on 1 in 200), ${CONNECTIONS} connections, ${seconds}s per run, ${pages[key(lite, "all")]!.length} alternated rounds (medians; ratios ±spread), loopback`,
  );
  console.log("The machine may be shared: read the ratios (each taken within a round), not the absolute figures.");
  console.log(`${"measure".padEnd(40)} ${"SQLite".padStart(16)} ${both ? "PostgreSQL".padStart(16) : ""}`);
  for (const side of SIDES) line(`page of 50, ${LABEL[side]} (req/s)`, median(pages[key(lite, side)]!), pg === undefined ? undefined : median(pages[key(pg, side)]!));
  for (const side of SIDES.slice(1)) {
    const a = ratio(pages, key(lite, "all"), key(lite, side));
    const b = pg === undefined ? undefined : ratio(pages, key(pg, "all"), key(pg, side));
    line(`cost ${LABEL[side]} / unfiltered`, formatRatio(a), b === undefined ? undefined : formatRatio(b), verdicts(a, b));
  }
  for (const sort of ["newest", "top"] as const) {
    const runs = colds.get(sort)!;
    for (const side of SIDES) line(`cold ${sort} page + count, ${LABEL[side]} (ms)`, median(runs[key(lite, side)]!), pg === undefined ? undefined : median(runs[key(pg, side)]!));
    for (const side of SIDES.slice(1)) {
      const a = ratio(runs, key(lite, side), key(lite, "all"));
      const b = pg === undefined ? undefined : ratio(runs, key(pg, side), key(pg, "all"));
      line(`cold ${sort}: ${LABEL[side]} / unfiltered`, formatRatio(a), b === undefined ? undefined : formatRatio(b), verdicts(a, b));
    }
  }
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await Promise.all(engines.map((e) => e.close()));
  await rm(dataDir, { recursive: true, force: true });
}
