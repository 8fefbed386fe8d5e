/**
 * Downloads from S3 storage: through Tidings' signed link (the server streams the object) against
 * a presigned URL fetched straight from the S3 server (what a redirect would hand the client).
 * Both on loopback against s3rver, so the figures are the server's own overhead, not a network's.
 */
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp, loadConfig } from "@tidings/server";
import S3rver from "s3rver";

const HOST = "127.0.0.1";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const BUCKET = "tidings-bench";
const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** Time to first byte and to the last, in ms, of one GET that reads the whole body. */
async function timed(url: string): Promise<{ ttfb: number; total: number; bytes: number }> {
  const start = performance.now();
  const res = await fetch(url);
  if (!res.ok || res.body === null) throw new Error(`${url} answered ${res.status}`);
  const reader = res.body.getReader();
  let ttfb = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) ttfb = performance.now() - start;
    bytes += value.length;
  }
  return { ttfb, total: performance.now() - start, bytes };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(url: () => Promise<string>) {
  for (let i = 0; i < 3; i++) await timed(await url());
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await timed(await url()));
  const total = median(runs.map((r) => r.total));
  return { ttfb: median(runs.map((r) => r.ttfb)), total, mbPerSecond: runs[0]!.bytes / 1024 / 1024 / (total / 1000) };
}

const directory = await mkdtemp(path.join(tmpdir(), "tidings-bench-s3-"));
const dataDir = await mkdtemp(path.join(tmpdir(), "tidings-bench-"));
const s3rver = new S3rver({ address: HOST, port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET }] });
const { port } = await s3rver.run();
const endpoint = `http://${HOST}:${port}`;
process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
const env = {
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
  STORAGE_URL: `s3://${BUCKET}/uploads`,
  S3_ENDPOINT: endpoint,
  S3_FORCE_PATH_STYLE: "true",
  TIDINGS_RATE_LIMIT_UPLOAD: "1000000/60",
};
const tidings = await buildApp({ ...loadConfig(env), port: 0, host: HOST }, { logger: false });
const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: CREDENTIALS });

try {
  const base = await tidings.listen({ port: 0, host: HOST });
  console.log(`${ROUNDS} sequential downloads each (medians), loopback, s3rver`);
  console.log(`${"size".padEnd(8)} ${"path".padEnd(30)} ${"TTFB ms".padStart(8)} ${"total ms".padStart(9)} ${"MB/s".padStart(7)}`);
  for (const size of (process.env.BENCH_SIZES ?? "65536,4194304").split(",").map(Number)) {
    const form = new FormData();
    form.set("appKey", "app_demo");
    form.set("file", new Blob([Buffer.alloc(size, 1)], { type: "text/plain" }), "bench.log");
    const uploaded = await fetch(`${base}/api/v1/uploads/objects`, { method: "POST", body: form });
    if (!uploaded.ok) throw new Error(`upload answered ${uploaded.status}: ${await uploaded.text()}`);
    const { url, uploadId } = (await uploaded.json()) as { url: string; uploadId: string };
    const signed = new URL(url, base).toString();
    const row = await tidings.ctx.db.kysely.selectFrom("uploads").select("storageKey").where("id", "=", uploadId).executeTakeFirstOrThrow();
    const presign = () => getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: `uploads/${row.storageKey}` }), { expiresIn: 300 });
    const label = size < 1024 * 1024 ? `${size / 1024} KiB` : `${size / 1024 / 1024} MiB`;
    const print = (name: string, r: Awaited<ReturnType<typeof measure>>) =>
      console.log(`${label.padEnd(8)} ${name.padEnd(30)} ${r.ttfb.toFixed(1).padStart(8)} ${r.total.toFixed(1).padStart(9)} ${r.mbPerSecond.toFixed(0).padStart(7)}`);
    print("streamed by tidings", await measure(() => Promise.resolve(signed)));
    print("presigned, straight from S3", await measure(presign));
  }
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  client.destroy();
  await tidings.close();
  s3rver.httpServer.closeAllConnections();
  await s3rver.close();
  await rm(directory, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
}
