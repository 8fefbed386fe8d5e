import type { Writable } from "node:stream";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify from "fastify";
import { appConsoleRoutes } from "./apps/console-routes.js";
import { publicConfigRoutes } from "./apps/public-routes.js";
import { openRedisCache, RedisCache, type CacheLog } from "./cache/redis-cache.js";
import { cacheLimits, MemoryCache, type SharedCache } from "./cache/shared-cache.js";
import { systemClock, type Clock, type Timers } from "./clock.js";
import type { Config } from "./config.js";
import { authenticate } from "./console/auth.js";
import { consoleRoutes } from "./console/routes.js";
import { portabilityConsoleRoutes } from "./portability/console-routes.js";
import { dashboardRoutes, defaultDashboardDir } from "./console/dashboard-static.js";
import { invitationRoutes } from "./console/invitation-routes.js";
import { consoleSessionRoutes } from "./console/session-routes.js";
import type { Context } from "./context.js";
import { migrateToLatest, openDatabase, type Db } from "./db/database.js";
import { seedDemo } from "./demo/seed-demo.js";
import { feedbackConsoleRoutes } from "./feedback/console-routes.js";
import { voteOnBehalfConsoleRoutes } from "./votes-on-behalf/console-routes.js";
import { feedbackPublicRoutes } from "./feedback/public-routes.js";
import { featureRequestConsoleRoutes } from "./feature-requests/console-routes.js";
import { commentConsoleRoutes } from "./feature-requests/comment-console-routes.js";
import { duplicateConsoleRoutes } from "./feature-requests/duplicate-routes.js";
import { recordBoardMoves } from "./feature-requests/events.js";
import { companyConsoleRoutes } from "./companies/console-routes.js";
import { featureRequestPublicRoutes } from "./feature-requests/public-routes.js";
import { clientErrorHandler, installParserAnswers, MAX_HEAD_BYTES } from "./http/client-errors.js";
import { registerPublicCors } from "./http/cors.js";
import { ApiError, frameworkErrorHandler, installErrorHandlers } from "./http/errors.js";
import { healthRoutes } from "./http/health.js";
import { registerIdempotency } from "./http/idempotency.js";
import { idempotencySweep } from "./http/idempotency-store.js";
import { consoleSecurity, describeRoute, requireRouteDocs, SECURITY_SCHEMES } from "./http/openapi.js";
import { installValidators } from "./http/validation.js";
import { ensureInstanceSecrets } from "./instance-secrets.js";
import { refuseUnusableHeads } from "./http/request-head.js";
import { registerResponseHeaders, securityHeaders } from "./http/security-headers.js";
import { requestId } from "./http/request-id.js";
import { CONSOLE_BODY_LIMIT, PUBLIC_BODY_LIMIT, type App } from "./http/types.js";
import { intakeConsoleRoutes } from "./intake/console-routes.js";
import { intakePublicRoutes } from "./intake/public-routes.js";
import { openRateLimiter, type OpenedRateLimiter } from "./rate-limit/open-rate-limiter.js";
import type { RateLimiter } from "./rate-limit/rate-limiter.js";
import { boardConsoleRoutes } from "./boards/console-routes.js";
import { boardsPublicRoutes } from "./boards/public-routes.js";
import { tagConsoleRoutes } from "./tags/console-routes.js";
import { segmentConsoleRoutes } from "./segments/console-routes.js";
import { customFieldConsoleRoutes } from "./custom-fields/console-routes.js";
import { customFieldsPublicRoutes } from "./custom-fields/public-routes.js";
import { roadmapConsoleRoutes } from "./roadmap/console-routes.js";
import { roadmapPublicRoutes } from "./roadmap/public-routes.js";
import { openStorage } from "./storage/open-storage.js";
import type { ObjectStorage } from "./storage/object-storage.js";
import { uploadPublicRoutes } from "./uploads/public-routes.js";
import { startUploadSweeper } from "./uploads/sweeper.js";
import { userPublicRoutes } from "./users/public-routes.js";
import { portalRoutes } from "./portal/routes.js";
import { backgroundJobRunner } from "./background-jobs.js";
import { notificationPublicRoutes } from "./notifications/public-routes.js";
import { changelogConsoleRoutes } from "./changelog/console-routes.js";
import { changelogPublicRoutes } from "./changelog/public-routes.js";
import { subscriberConsoleRoutes } from "./changelog/subscriber-console-routes.js";
import { endUserConsoleRoutes } from "./users/console-routes.js";
import { webhookConsoleRoutes } from "./webhooks/console-routes.js";
import { githubConsoleRoutes } from "./integrations/github/console-routes.js";
import { githubWebhookRoutes } from "./integrations/github/webhook-routes.js";
import { linearConsoleRoutes } from "./integrations/linear/console-routes.js";
import { linearWebhookRoutes } from "./integrations/linear/webhook-routes.js";
import type { DeliveryOutcome } from "./webhooks/delivery.js";
import { JOB_INTERVAL_MS } from "./jobs/runner.js";
import { createMailer, type Mailer } from "./mail/mailer.js";
import { queueDepth } from "./jobs/queue-reports.js";
import { countingCache, countingMailer } from "./metrics/instrument.js";
import { createMetrics } from "./metrics/metrics.js";
import { metricsRoutes } from "./metrics/routes.js";
import { mcpHttpRoutes } from "./mcp/http-routes.js";
import { archiveBoardFields } from "./custom-fields/definitions.js";

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
  // Only JSON bodies are accepted (multipart arrives with the upload routes). Fastify's own
  // parser (prototype-poisoning safe) does the work; NUL characters are refused up front
  // because PostgreSQL cannot store them and SQLite would, so both engines answer alike.
  app.removeContentTypeParser(["text/plain", "application/json"]);
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.includes("\\u0000")) {
      done(new ApiError("invalid_text"), undefined);
      return;
    }
    parseJson(request, text, done);
  });


  requireRouteDocs(app);
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Tidings API",
        version: "0.1.0",
        license: { name: "MIT", identifier: "MIT" },
        description: "Feedback, feature requests, roadmap and changelog. Errors: `{error, code?, details?}` (see docs/errors.md).",
      },
      servers: [{ url: config.publicUrl ?? "/", description: "This instance" }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: describeRoute,
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    staticCSP: true,
    // Self-hosted instances often run on plain http inside a LAN: do not force https sub-requests.
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ""),
  });

  // Public scope: CORS for any origin. The console scope below has none.
  await app.register(async (scope) => {
    const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
    await registerPublicCors(scope);
    // Before the routes: it hooks every public POST as it is declared.
    registerIdempotency(typed, ctx);
    typed.get("/api/v1/openapi.json", { schema: { hide: true } }, async () => app.swagger());
    healthRoutes(typed, health);
    publicConfigRoutes(typed, ctx);
    roadmapPublicRoutes(typed, ctx);
    boardsPublicRoutes(typed, ctx);
    customFieldsPublicRoutes(typed, ctx);
    intakePublicRoutes(typed, ctx);
    featureRequestPublicRoutes(typed, ctx);
    feedbackPublicRoutes(typed, ctx);
    await uploadPublicRoutes(typed, ctx);
    userPublicRoutes(typed, ctx);
    await changelogPublicRoutes(typed, ctx, jobs);
    await notificationPublicRoutes(typed, ctx, jobs);
  });

  // GitHub's webhook deliveries: their own scope, where a JSON body stays raw text to be verified.
  await app.register(async (scope) => githubWebhookRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx, jobs));
  // Linear's, likewise.
  await app.register(async (scope) => linearWebhookRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx, jobs));

  // The public portal (/p/<APP_KEY>), its bundles and the script-tag widget: HTML, outside /api.
  await app.register(async (scope) => portalRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx));

  await app.register(
    async (scope) => {
      const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
      scope.addHook("onRoute", (route) => {
        route.schema = { ...route.schema, security: consoleSecurity(route.method) };
        route.bodyLimit = CONSOLE_BODY_LIMIT;
      });
      scope.addHook("onRequest", async (request) => {
        request.principal = await authenticate(ctx, request);
      });
      consoleRoutes(typed, ctx);
      invitationRoutes(typed, ctx);
      appConsoleRoutes(typed, ctx);
      roadmapConsoleRoutes(typed, ctx);
      boardConsoleRoutes(typed, ctx, { boardDeleted: archiveBoardFields, requestsMoved: recordBoardMoves });
      tagConsoleRoutes(typed, ctx);
      segmentConsoleRoutes(typed, ctx);
      customFieldConsoleRoutes(typed, ctx);
      featureRequestConsoleRoutes(typed, ctx);
      commentConsoleRoutes(typed, ctx);
      voteOnBehalfConsoleRoutes(typed, ctx);
      duplicateConsoleRoutes(typed, ctx);
      intakeConsoleRoutes(typed, ctx);
      feedbackConsoleRoutes(typed, ctx);
      changelogConsoleRoutes(typed, ctx, jobs);
      subscriberConsoleRoutes(typed, ctx);
      endUserConsoleRoutes(typed, ctx);
      companyConsoleRoutes(typed, ctx);
      webhookConsoleRoutes(typed, ctx, jobs);
      githubConsoleRoutes(typed, ctx, jobs);
      linearConsoleRoutes(typed, ctx, jobs);
      portabilityConsoleRoutes(typed, ctx);
    },
    { prefix: "/api/v1/console" },
  );

  // The MCP server over HTTP: authorised by a console API token of its own accord (docs/mcp.md).
  await app.register(async (scope) => mcpHttpRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx));

  // People signing in to the dashboard: outside the bearer hook above (setup, login, logout).
  await app.register(
    async (scope) => {
      const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
      scope.addHook("onRoute", (route) => {
        route.bodyLimit = CONSOLE_BODY_LIMIT;
      });
      consoleSessionRoutes(typed, ctx);
    },
    { prefix: "/api/v1/console/auth" },
  );
  dashboardRoutes(app, options.dashboardDir ?? defaultDashboardDir());

  return app;
}
