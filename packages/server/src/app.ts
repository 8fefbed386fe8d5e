import type { Writable } from "node:stream";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify from "fastify";
import { openRedisCache, RedisCache, type CacheLog } from "./cache/redis-cache.js";
import { cacheLimits, MemoryCache } from "./cache/memory-cache.js";
import type { SharedCache } from "./cache/shared-cache.js";
import { systemClock, type Clock, type Timers } from "./clock.js";
import type { Config } from "./config.js";
import { defaultDashboardDir } from "./console/dashboard-static.js";
import type { Context } from "./context.js";
import { migrateToLatest } from "./db/migrate.js";
import { openDatabase, type Db } from "./db/database.js";
import { seedDemo } from "./demo/seed-demo.js";
import { clientErrorHandler, installParserAnswers, MAX_HEAD_BYTES } from "./http/client-errors.js";
import { frameworkErrorHandler, installErrorHandlers } from "./http/error-responses.js";
import { healthRoutes } from "./http/health.js";
import { idempotencySweep } from "./http/idempotency-sweep.js";
import { installValidators } from "./http/validation.js";
import { ensureInstanceSecrets } from "./instance-secrets.js";
import { refuseUnusableHeads } from "./http/request-head.js";
import { registerResponseHeaders, securityHeaders } from "./http/security-headers.js";
import { requestId } from "./http/request-id.js";
import { PUBLIC_BODY_LIMIT, type App } from "./http/types.js";
import { openRateLimiter, type OpenedRateLimiter } from "./rate-limit/open-rate-limiter.js";
import type { RateLimiter } from "./rate-limit/rate-limiter.js";
import { openStorage } from "./storage/open-storage.js";
import type { ObjectStorage } from "./storage/object-storage.js";
import { startUploadSweeper } from "./uploads/sweeper.js";
import { backgroundJobRunner } from "./background-jobs.js";
import type { DeliveryOutcome } from "./webhooks/delivery.js";
import { JOB_INTERVAL_MS } from "./jobs/runner.js";
import { createMailer, type Mailer } from "./mail/mailer.js";
import { queueDepth } from "./jobs/queue-reports.js";
import { countingCache, countingMailer } from "./metrics/instrument.js";
import { createMetrics } from "./metrics/metrics.js";
import { metricsRoutes } from "./metrics/routes.js";
import { acceptJsonBodies } from "./http/json-body.js";
import { registerRoutes } from "./routes.js";

/** Parts a caller may supply instead of the defaults (tests inject a database, a clock, a cache). */
export interface BuildOptions {
  /** An open, migrated database; when absent one is opened from `config.databaseUrl` and migrated. */
  db?: Db;
  clock?: Clock;
  /** Timers of the background work, beside `clock` (tests pass their fake clock). @default Node's timers */
  timers?: Timers;
  /** Replaces the cache `config.redisUrl` selects (the caller keeps ownership). */
  cache?: SharedCache;
  /** Prefix of the shared cache's Redis keys, so instances of one deployment share them. @default "tidings:cache:" */
  cachePrefix?: string;
  /** Replaces the limiter `config.redisUrl` selects; the caller keeps ownership (it is not closed with the app). */
  rateLimiter?: RateLimiter;
  /** Where uploads are stored instead of the one `config.storage` selects; the caller keeps ownership. */
  storage?: ObjectStorage;
  /** Sends mail instead of the one `config.smtpUrl` selects; the caller keeps ownership. */
  mailer?: Mailer;
  /** Sees the outcome of every webhook delivery attempt (a metrics counter of deliveries by outcome). @default none */
  onWebhookDelivery?: (outcome: DeliveryOutcome) => void;
  /** The longest background work sleeps between runs (it wakes sooner for work due or queued); `0` leaves it to `app.jobs.tick()`. @default 5000 */
  jobIntervalMs?: number;
  /** Folder of the built admin dashboard served at `/admin/`. @default packages/dashboard/dist/public */
  dashboardDir?: string;
  /** `false` silences logs (tests). */
  logger?: boolean;
  /** Where JSON log lines go instead of stdout (tests read them). */
  logStream?: Writable;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Everything routes are given. */
    ctx: Context;
  }
}

/**
 * Builds the configured, not-listening server. Opens and migrates the database unless one is
 * given, and seeds the demo app into an empty database when `config.demo` is on.
 *
 * @example
 * ```ts
 * const app = await buildApp(loadConfig());
 * const res = await app.inject({ url: "/api/v1/public/config/app_demo" });
 * ```
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const clock = options.clock ?? systemClock;
  const ownsDb = options.db === undefined;
  const db = options.db ?? openDatabase(config.databaseUrl, { timeQueries: config.metricsEnabled });
  if (ownsDb) await migrateToLatest(db);
  const demoSeeded = config.demo ? await seedDemo(db.kysely, clock, db.dialect) : false;
  const limiter: OpenedRateLimiter =
    options.rateLimiter === undefined
      ? await openRateLimiter(config.redisUrl, clock)
      : { limiter: options.rateLimiter, close: () => Promise.resolve() };
  // The cache logs through the app's logger, which exists only once Fastify is built below:
  // lines from before (Redis unreachable at start) wait for it.
  const cacheLog: { to?: CacheLog; early: ((log: CacheLog) => void)[] } = { early: [] };
  const forwardLog: CacheLog = {
    warn: (details, message) => (cacheLog.to === undefined ? cacheLog.early.push((log) => log.warn(details, message)) : cacheLog.to.warn(details, message)),
    info: (details, message) => (cacheLog.to === undefined ? cacheLog.early.push((log) => log.info(details, message)) : cacheLog.to.info(details, message)),
  };
  const redisCache =
    options.cache === undefined && config.redisUrl !== null
      ? await openRedisCache(config.redisUrl, clock, forwardLog, options.cachePrefix, cacheLimits(config))
      : undefined;
  // The scrape's failures are logged by the app's logger, built below.
  const metricsLog: { to?: CacheLog } = {};
  const metrics = createMetrics({
    clock,
    queueDepth: () => queueDepth(db.kysely),
    onCollectError: (err) => metricsLog.to?.warn({ err }, "metrics: could not read the job queue"),
    processMetrics: config.metricsEnabled,
    cacheStats: () => (cache instanceof MemoryCache || cache instanceof RedisCache ? cache.stats() : undefined),
  });
  const cache = options.cache ?? redisCache?.cache ?? new MemoryCache(clock, cacheLimits(config));
  const ctx: Context = {
    config,
    db,
    clock,
    // Counting reads costs a wrapper call per read: only when metrics are on.
    cache: config.metricsEnabled ? countingCache(cache, metrics) : cache,
    rateLimiter: limiter.limiter,
    storage: options.storage ?? (await openStorage(config)),
    metrics,
  };
  await ensureInstanceSecrets(ctx);

  // Answers refused before routing (by Node's HTTP parser or the router) carry these too.
  const security = securityHeaders(config.publicUrl);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, ...(options.logStream === undefined ? {} : { stream: options.logStream }) },
    genReqId: requestId,
    // A hop count trusts that many proxies nearest to us, as proxy-addr reads a number.
    trustProxy:
      typeof config.trustProxy === "number"
        ? ((hops: number) => (_address: string, hop: number) => hop < hops)(config.trustProxy)
        : config.trustProxy,
    bodyLimit: PUBLIC_BODY_LIMIT,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 1000 },
    frameworkErrors: frameworkErrorHandler(security),
    clientErrorHandler: clientErrorHandler(security),
    // Node answers a missing Host with an empty 400; refuseUnusableHeads answers it in the envelope.
    http: { maxHeaderSize: MAX_HEAD_BYTES, requireHostHeader: false },
  }).withTypeProvider<TypeBoxTypeProvider>();
  installParserAnswers(app.server, app.log, security);
  cacheLog.to = app.log;
  for (const line of cacheLog.early) line(app.log);
  metricsLog.to = app.log;
  if (config.metricsEnabled) {
    // Before every route and scope, so each of them (and the 404 handler) is counted.
    metricsRoutes(app, metrics, config.metricsToken);
    const stopTiming = db.queries?.listen(metrics.observeQuery);
    if (stopTiming !== undefined) app.addHook("onClose", async () => void stopTiming());
  }

  app.decorate("ctx", ctx);
  app.decorateRequest("principal", null);
  let closing = false;
  app.addHook("onClose", async () => {
    if (ownsDb) await db.destroy();
  });
  app.addHook("onClose", () => limiter.close());
  // Background work runs unless this instance only serves the web (TIDINGS_ROLE=web).
  const background = config.role !== "web";
  app.addHook("onClose", async () => {
    if (options.storage === undefined) await ctx.storage.close?.();
  });
  app.addHook("onClose", async () => {
    await redisCache?.close();
  });
  // Uploads no submission took are deleted after 24 h; the sweep stops before the database closes.
  if (background) {
    const stopSweeper = startUploadSweeper(ctx, app.log);
    app.addHook("preClose", () => stopSweeper());
  }
  app.addHook("preClose", async () => {
    closing = true;
  });
  // Scheduled releases and queued mail; the runner stops (finishing its tick) before the database closes.
  const ownMailer = options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, leaseMs: config.jobLeaseMs }, app.log);
  const mailer = config.metricsEnabled ? countingMailer(ownMailer, metrics) : ownMailer;
  const onWebhookDelivery = options.onWebhookDelivery;
  const jobs = backgroundJobRunner(ctx, app.log, mailer, {
    onDelivery: (outcome) => {
      metrics.webhookDeliveries.inc({ outcome });
      onWebhookDelivery?.(outcome);
    },
  }, options.timers);
  app.decorate("jobs", jobs);
  // Idempotency keys past their 24 h go with the background ticks (at most every 10 minutes).
  jobs.step(idempotencySweep());
  if (background) jobs.start(options.jobIntervalMs ?? JOB_INTERVAL_MS);
  app.addHook("preClose", () => jobs.stop());
  app.addHook("onClose", async () => {
    if (options.mailer === undefined) ownMailer.close();
  });
  // While shutting down, ask keep-alive clients to hang up after the answer they are waiting for.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) void reply.header("Connection", "close");
    done(null, payload);
  });
  registerResponseHeaders(app, config.publicUrl);
  refuseUnusableHeads(app);
  if (demoSeeded) app.log.info({ appKey: "app_demo" }, "seeded the demo workspace");

  installErrorHandlers(app);
  installValidators(app);
  const health = { db, storage: ctx.storage, redisPing: limiter.ping, role: config.role, isClosing: () => closing };
  // A worker serves its health and nothing else: its HTTP port is for the orchestrator.
  if (config.role === "worker") {
    healthRoutes(app, health);
    return app;
  }
  acceptJsonBodies(app);
  await registerRoutes(app, ctx, { jobs, health, dashboardDir: options.dashboardDir ?? defaultDashboardDir() });

  return app;
}
