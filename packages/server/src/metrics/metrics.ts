import type { LogEvent } from "kysely";
import { Counter, Histogram, Registry } from "prom-client";
import type { CacheStats } from "../cache/memory-cache.js";
import type { Clock } from "../clock.js";
import type { QueueDepth } from "../jobs/queue-reports.js";
import type { AttemptOutcome } from "../webhooks/send.js";
import { registerCacheGauges } from "./cache-gauges.js";
import { HistogramTally } from "./histogram-tally.js";
import { registerJobGauges } from "./job-gauges.js";
import { collectProcessMetrics } from "./process-metrics.js";
import { Tally } from "./tally.js";

/** How a webhook delivery attempt ended (as its delivery log records it). */
export type WebhookDeliveryOutcome = AttemptOutcome;

/** Every outcome, so each series exists (at 0) from the first scrape. */
export const WEBHOOK_DELIVERY_OUTCOMES: readonly WebhookDeliveryOutcome[] = ["success", "http_error", "network_error", "timeout", "refused"];

/**
 * The metrics of one server instance, in a registry of its own (never prom-client's global one,
 * so several apps in one process, as in tests, keep their counts apart).
 */
export interface Metrics {
  readonly registry: Registry;
  /**
   * Timed per request: a {@link HistogramTally}, read by prom-client at each scrape. Its series'
   * counts are also `tidings_http_requests_total`, so a request is one observation.
   */
  readonly httpDuration: HistogramTally<"method" | "route" | "status_class">;
  readonly dbQueryDuration: Histogram<"operation" | "outcome">;
  readonly mailDeliveries: Counter<"outcome">;
  /** Outbound webhook attempts by outcome; call `inc({ outcome })` once per attempt. */
  readonly webhookDeliveries: Counter<"outcome">;
  readonly rateLimitRefusals: Counter<"bucket">;
  /** Counted per cache read: a {@link Tally}. */
  readonly cacheLookups: Tally<"cache" | "result">;
  /** Times one Kysely query (its log event) into {@link Metrics.dbQueryDuration}. */
  observeQuery(event: LogEvent): void;
}

/** What the scrape-time job gauges read. */
export interface MetricsSources {
  clock: Clock;
  /** The unfinished jobs by kind; called once per scrape. */
  queueDepth: () => Promise<QueueDepth[]>;
  /** A failed read of the queue (the scrape still answers, without the job gauges). */
  onCollectError: (error: unknown) => void;
  /** The in-process cache's size (see cache/memory-cache.ts); absent or undefined: the gauges stay empty. */
  cacheStats?: () => CacheStats | undefined;
  /** Also collect Node's process metrics (CPU, memory, event loop, GC): only for an instance that serves them. @default false */
  processMetrics?: boolean;
}

// Latencies from a cached config answer (well under a millisecond) to a slow export.
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DB_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Kysely's root node kinds, as the `operation` label. */
const OPERATIONS: Readonly<Record<string, string>> = {
  SelectQueryNode: "select",
  InsertQueryNode: "insert",
  UpdateQueryNode: "update",
  DeleteQueryNode: "delete",
  MergeQueryNode: "merge",
};

/**
 * Creates the registry with every Tidings metric (names and labels in docs/metrics.md) and,
 * when asked, Node's process metrics. The job gauges query the queue when scraped, once for both.
 *
 * @example
 * ```ts
 * const metrics = createMetrics({ clock, queueDepth: () => queueDepth(db.kysely), onCollectError: (err) => log.warn({ err }) });
 * metrics.webhookDeliveries.inc({ outcome: "success" });
 * const text = await metrics.registry.metrics();
 * ```
 */
export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  // Process metrics start observers (GC, event-loop delay) that live as long as the process.
  if (sources.processMetrics === true) collectProcessMetrics(registry);
  const registers = [registry];
  const httpLabels = ["method", "route", "status_class"] as const;
  registerJobGauges(registers, sources);

  registerCacheGauges(registers, sources);

  const dbQueryDuration = new Histogram({
    name: "tidings_db_query_duration_seconds",
    help: "Duration of database queries run through the query builder, by statement kind and outcome",
    labelNames: ["operation", "outcome"],
    buckets: DB_BUCKETS,
    registers,
  });
  const webhookDeliveries = new Counter({
    name: "tidings_webhook_deliveries_total",
    help: "Outbound webhook delivery attempts, by outcome",
    labelNames: ["outcome"],
    registers,
  });
  for (const outcome of WEBHOOK_DELIVERY_OUTCOMES) webhookDeliveries.inc({ outcome }, 0);
  const mailDeliveries = new Counter({
    name: "tidings_mail_deliveries_total",
    help: "Mails handed to SMTP (or the outbox folder), by outcome: sent or failed",
    labelNames: ["outcome"],
    registers,
  });
  for (const outcome of ["sent", "failed"]) mailDeliveries.inc({ outcome }, 0);

  // The request count is the duration histogram's count per series, read when scraped.
  new Counter({
    name: "tidings_http_requests_total",
    help: "HTTP requests answered, by method, route template and status class",
    labelNames: httpLabels,
    registers,
    collect() {
      this.reset();
      for (const series of httpDuration.all()) if (series.count > 0) this.inc(series.labels, series.count);
    },
  });
  const httpDuration = new HistogramTally({
    name: "tidings_http_request_duration_seconds",
    help: "Time from receiving a request to sending its answer, by method, route template and status class",
    labelNames: httpLabels,
    buckets: HTTP_BUCKETS,
    registers,
  });

  return {
    registry,
    httpDuration,
    dbQueryDuration,
    mailDeliveries,
    webhookDeliveries,
    rateLimitRefusals: new Counter({
      name: "tidings_rate_limit_refusals_total",
      help: "Requests refused with 429 by a rate-limit bucket",
      labelNames: ["bucket"],
      registers,
    }),
    cacheLookups: new Tally({
      name: "tidings_cache_lookups_total",
      help: "Shared-cache reads, by cache (the key's prefix) and result: hit or miss",
      labelNames: ["cache", "result"],
      registers,
    }),
    observeQuery: (event) => {
      const operation = OPERATIONS[event.query.query.kind] ?? "other";
      dbQueryDuration.observe({ operation, outcome: event.level === "error" ? "error" : "ok" }, event.queryDurationMillis / 1000);
    },
  };
}
