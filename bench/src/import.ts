/**
 * `tidings import` at scale: 100k Canny posts with 1M votes (from 50k voters) and 20k comments,
 * written as the API pages an operator would fetch, imported into a fresh SQLite database. Prints
 * the time, the rate and the peak memory: the import streams page by page, so memory stays flat
 * however many votes there are (it grows with requests, not votes). A second run of the same
 * import is timed too (it must change nothing). Sizes: BENCH_IMPORT_REQUESTS, BENCH_IMPORT_VOTES.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { IMPORT_EXIT, data, importCommand, migrateToLatest, openDatabase, systemClock } from "@tidings/server";

const REQUESTS = Number(process.env.BENCH_IMPORT_REQUESTS ?? 100_000);
const VOTES = Number(process.env.BENCH_IMPORT_VOTES ?? 1_000_000);
const VOTERS = Math.max(1, Math.min(50_000, VOTES));
const COMMENTS = Math.round(REQUESTS / 5);
const PAGE = 5_000;
/** Memory the import may add on top of the process, whatever the number of votes. */
const MEMORY_TARGET_MB = 512;

const dir = await mkdtemp(path.join(tmpdir(), "tidings-bench-import-"));
const input = path.join(dir, "canny");
const dataDir = path.join(dir, "data");

const postId = (i: number) => `p${i}`;
const voter = (i: number) => ({ id: `u${i}`, email: i % 3 === 0 ? null : `user${i}@example.com`, isAdmin: false, name: `User ${i}`, created: "2021-01-01T00:00:00.000Z" });
const iso = (i: number) => new Date(Date.UTC(2021, 0, 1) + i * 1000).toISOString();

/** Writes `count` items as API pages `<kind>-<n>.json`, PAGE items each. */
async function pages(kind: string, count: number, item: (i: number) => unknown): Promise<void> {
  for (let start = 0, n = 0; start < count; start += PAGE, n++) {
    const items = Array.from({ length: Math.min(PAGE, count - start) }, (_, j) => item(start + j));
    await writeFile(path.join(input, `${kind}-${n}.json`), JSON.stringify({ hasMore: start + PAGE < count, [kind]: items }));
  }
}

/** Votes per post: spread so post i gets about VOTES/REQUESTS, each from distinct voters. */
function voteAt(i: number) {
  const post = i % REQUESTS;
  const round = Math.floor(i / REQUESTS);
  return { id: `v${i}`, created: iso(i), post: { id: postId(post) }, voter: voter((post + round * 7919) % VOTERS), zendeskTicket: null };
}

async function importOnce(): Promise<{ seconds: number; peakRss: number; code: number; summary: Record<string, unknown> }> {
  let out = "";
  const stdout = new PassThrough().on("data", (c: Buffer) => (out += c.toString()));
  const stderr = new PassThrough().resume();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const started = performance.now();
  const code = await importCommand(["--format", "canny", "--app", "app_bench_import", "--json", input], { env: { DATA_DIR: dataDir, LOG_LEVEL: "silent" }, stdout, stderr });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const summary = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
  return { seconds, peakRss, code, summary };
}

try {
  await mkdir(input, { recursive: true });
  const t0 = performance.now();
  await pages("posts", REQUESTS, (i) => ({
    id: postId(i),
    author: voter(i % VOTERS),
    created: iso(i),
    details: `Please add support for thing ${i}.\n\n- it matters`,
    score: Math.ceil(VOTES / REQUESTS) + (i % 3),
    status: ["open", "under review", "planned", "in progress", "complete"][i % 5],
    tags: [],
    title: `Request number ${i}`,
  }));
  await pages("comments", COMMENTS, (i) => ({
    id: `c${i}`,
    author: voter(i % VOTERS),
    created: iso(i),
    internal: false,
    parentID: i % 4 === 3 ? `c${i - 1}` : null,
    post: { id: postId(i % 4 === 3 ? (i - 1) % REQUESTS : i % REQUESTS) },
    private: false,
    value: `Comment ${i}`,
  }));
  await pages("votes", VOTES, voteAt);
  process.stdout.write(`Wrote ${REQUESTS} posts, ${VOTES} votes and ${COMMENTS} comments as Canny API pages in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

  // The app to import into, as an operator would have it.
  const db = openDatabase(`sqlite:${path.join(dataDir, "tidings.db")}`);
  await migrateToLatest(db);
  await db.kysely.transaction().execute(async (trx) => {
    const { workspace } = await data.createWorkspace(trx, systemClock, { name: "Bench", slug: "bench" }, null);
    await data.createApp(trx, systemClock, workspace.id, { name: "Imported" }, { appKey: "app_bench_import" });
  });
  await db.destroy();

  const baseline = process.memoryUsage().rss;
  const first = await importOnce();
  if (first.code !== IMPORT_EXIT.ok) throw new Error(`import exited ${first.code}: ${JSON.stringify(first.summary)}`);
  const rows = REQUESTS + VOTES + COMMENTS;
  const addedMb = (first.peakRss - baseline) / 1024 / 1024;
  process.stdout.write(
    `Import: ${first.seconds.toFixed(1)} s (${Math.round(rows / first.seconds)} rows/s), peak RSS ${(first.peakRss / 1024 / 1024).toFixed(0)} MB (${addedMb.toFixed(0)} MB above the start; target under ${MEMORY_TARGET_MB} MB: ${addedMb < MEMORY_TARGET_MB ? "ok" : "OVER"}) — ${JSON.stringify(first.summary.counts)}\n`,
  );
  const second = await importOnce();
  const counts = second.summary.counts as Record<string, number> | undefined;
  if (second.code !== IMPORT_EXIT.ok || counts?.requests !== 0 || counts.votes !== 0 || counts.comments !== 0) {
    throw new Error(`a second run changed something: ${JSON.stringify(second.summary)}`);
  }
  process.stdout.write(`Second run (changes nothing): ${second.seconds.toFixed(1)} s, peak RSS ${(second.peakRss / 1024 / 1024).toFixed(0)} MB\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
