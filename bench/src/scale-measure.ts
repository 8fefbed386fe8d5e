/**
 * One operation of the scale benchmark measured on a running server: latency from sequential
 * requests timed one by one (p50, p95: autocannon reports no p95), then throughput from a bounded
 * autocannon run of the same requests (see scale-request.cjs).
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { load } from "./load.js";

const requestFile = fileURLToPath(new URL("../scale-request.cjs", import.meta.url));
const operations = createRequire(import.meta.url)(requestFile) as {
  build(op: string, target: Target): { method: "GET" | "POST"; path: string; headers: Record<string, string>; body: string | undefined };
  OPERATIONS: string[];
};

/** The operations a board is measured on, in print order. */
export const BOARD_OPERATIONS = [
  "anonymous page",
  "personalised page",
  "search",
  "similar requests",
  "vote",
  "propose",
  "comment",
  "request detail",
  "roadmap",
  "changelog",
] as const;
/**
 * The operations measured on each of many apps. Search too: every app's requests hold the same
 * words, so a search that looked at other apps' requests would grow with their number.
 */
export const APP_OPERATIONS = ["config", "anonymous page", "search", "vote"] as const;
export type Operation = (typeof BOARD_OPERATIONS)[number] | (typeof APP_OPERATIONS)[number];

/** What the requests go to: an app, requests of it, and a viewer who has voted on a few. */
export interface Target {
  appKey: string;
  ids: string[];
  viewer: string;
}

export interface Figures {
  p50: number;
  p95: number;
  /** Requests per second with autocannon's connections. */
  rps: number;
}

/** Percentile of sorted samples. */
export const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Sends one request of `op` and answers how long it took, in ms; throws on any non-2xx. */
export async function timeOne(base: string, op: Operation, target: Target): Promise<number> {
  const { method, path, headers, body } = operations.build(op, target);
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`${op}: ${method} ${path} answered ${res.status}`);
  return ms;
}

/** `samples` sequential requests (after a few to warm up), then `seconds` of autocannon. */
export async function measure(base: string, op: Operation, target: Target, samples: number, seconds: number): Promise<Figures> {
  for (let i = 0; i < 5; i++) await timeOne(base, op, target);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await timeOne(base, op, target));
  times.sort((a, b) => a - b);
  // Read by the load generator's thread when it starts.
  process.env.BENCH_SCALE_TARGET = JSON.stringify({ ...target, op });
  const result = await load(`${base}/`, seconds, { requests: [{ setupRequest: requestFile as never }] });
  return { p50: percentile(times, 50), p95: percentile(times, 95), rps: result.requests.average };
}

/** "12.3" for ms, "1234" for rates. */
export const fixed = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(value < 100 ? 1 : 0));
export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
