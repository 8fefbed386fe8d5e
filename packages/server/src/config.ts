import path from "node:path";
import type { RateLimitRules } from "./rate-limit/buckets.js";
import type { WebhookAllowList } from "./webhooks/address-guard.js";
import { ConfigError, parseBool, parseInteger, parseUrl, type Env } from "./config/env.js";
import { parseRateLimits } from "./config/rate-limits.js";
import { parsePort, parseRole, parseTrustProxy, type InstanceRole } from "./config/server.js";
import { parseDatabaseUrl, parseMailFrom, parseRedisUrl, parseSmtpUrl, parseWebhookAllowEnv } from "./config/services.js";
import { parseStorage, type StorageConfig } from "./config/storage.js";

export { ConfigError } from "./config/env.js";
export type { InstanceRole } from "./config/server.js";
export type { StorageConfig } from "./config/storage.js";

/** Validated server configuration. Build it with {@link loadConfig} or by hand in tests. */
export interface Config {
  /** TCP port (`0` picks a free one). @default 8787 */
  port: number;
  /** Interface to bind. @default "0.0.0.0" */
  host: string;
  /**
   * Folder for the SQLite file, uploaded attachments (`DATA_DIR/uploads`, written on first upload)
   * and, without `SMTP_URL`, the mail outbox (`DATA_DIR/outbox`). @default "./data"
   */
  dataDir: string;
  /** `sqlite:<file>` (default: DATA_DIR/tidings.db) or a `postgres://` URL. */
  databaseUrl: string;
  /**
   * Public origin used in links and the start-up banner, without a trailing slash. When it is
   * `https://…`, answers carry HSTS. @default null
   */
  publicUrl: string | null;
  /**
   * Whether to take the client IP (rate limits, logs) from `X-Forwarded-For`: `true`, a hop count,
   * or comma-separated proxy addresses/CIDRs (Fastify `trustProxy`). Leave `false` unless a proxy
   * you run sits in front. @default false
   */
  trustProxy: boolean | number | string[];
  /** `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; logs are JSON lines (pino) with the request id. @default "info" */
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Seed a demo workspace (app key `app_demo`) into an empty database; `0` turns it off. @default true */
  demo: boolean;
  /** Bootstrap owner token (at least 24 characters) accepted by the console API as `Authorization: Bearer …`, for first setup and automation. @default null */
  adminToken: string | null;
  /**
   * The one-time code the dashboard's first-run setup asks for (12-128 letters, digits, `-`, `_`);
   * it stops working once the owner account exists. Unset, one is derived from a secret kept in the
   * database (shared by every instance) and printed in the start-up banner and log; a code you set
   * is never printed. @default null
   */
  setupCode: string | null;
  /** `redis://` or `rediss://` URL of the Redis every instance shares rate limits and the public cache's invalidations through; null keeps both in memory. @default null */
  redisUrl: string | null;
  /**
   * `TIDINGS_CACHE_MAX_MB` (1-65536): about how many megabytes of cached pages, configs and
   * counts each instance keeps in memory (with `REDIS_URL` too: Redis carries only the
   * invalidations); the least recently used go first. @default 64
   */
  cacheMaxMb: number;
  /**
   * `TIDINGS_HEAP_GROWTH_PERCENT` (0-300), for `tidings serve`: how far, in percent, the JavaScript
   * heap may grow past what survived the last full garbage collection before the next one. V8's
   * own choice rises towards 300 under heavy load, so the heap, and the RSS, swing by hundreds of
   * megabytes that hold nothing; 0 leaves it to V8, as does starting node with
   * `--heap-growing-percent`. @default 50
   */
  heapGrowthPercent: number;
  /** Rule of each rate-limit bucket (`TIDINGS_RATE_LIMIT_<BUCKET>=<requests>/<seconds>`, per user token or IP) and its per-IP cap over all users (`TIDINGS_RATE_LIMIT_<BUCKET>_PER_IP=<requests>`). @default DEFAULT_RATE_LIMITS */
  rateLimits: RateLimitRules;
  /**
   * `NODE_ENV=production`: intake (`POST /feedback`, `POST /feature-requests`) then requires human
   * verification; an app without a provider is verified with the built-in altcha unless the console
   * marks it exempt. @default false
   */
  production: boolean;
  /** Cloudflare Turnstile siteverify URL. @default "https://challenges.cloudflare.com/turnstile/v0/siteverify" */
  turnstileVerifyUrl: string;
  /** hCaptcha siteverify URL. @default "https://api.hcaptcha.com/siteverify" */
  hcaptchaVerifyUrl: string;
  /** Google reCAPTCHA siteverify URL. @default "https://www.google.com/recaptcha/api/siteverify" */
  recaptchaVerifyUrl: string;
  /** How long a verification vendor may take (100-60000 ms); a slower or failed answer refuses the submission. @default 5000 */
  verificationTimeoutMs: number;
  /** Built-in altcha: PBKDF2 iterations per attempt. @default 2000 */
  altchaCost: number;
  /** Built-in altcha: the secret counter is drawn from [max/2, max]; the client's work grows with it. @default 5000 */
  altchaMaxCounter: number;
  /**
   * Built-in altcha: PBKDF2 iterations per attempt of challenges asked for with `?solver=js`, for
   * clients without Web Crypto (React Native on Hermes, which interprets JavaScript); never above
   * `altchaCost`. Anyone may ask for that challenge, so with `altchaJsMaxCounter` it is the work a
   * bot pays. @default 100
   */
  altchaJsCost: number;
  /**
   * Built-in altcha: the max counter of challenges asked for with `?solver=js`; never above
   * `altchaMaxCounter`. At the defaults a solve takes about half a second of CPU in an interpreter
   * (`node --jitless`). @default 100
   */
  altchaJsMaxCounter: number;
  /**
   * `smtp://[user:pass@]host:port` or `smtps://…`: where mail (subscription confirmations, release
   * notes, ship notifications) is sent. Unset, every mail is written as an `.eml` file under
   * `DATA_DIR/outbox` and its links are logged. @default null
   */
  smtpUrl: string | null;
  /** The From of every mail: an address or `Name <address>`. @default "Tidings <no-reply@localhost>" */
  mailFrom: string;
  /**
   * What this instance does: `web` serves HTTP and runs no background work, `worker` runs the
   * background work (scheduled releases, mail, upload sweeps) and serves only `/healthz` and
   * `/readyz`, `all` both (`TIDINGS_ROLE`). @default "all"
   */
  role: InstanceRole;
  /**
   * How long a claimed background job is reserved (`TIDINGS_JOB_LEASE_SECONDS`, 2-86400): an
   * instance that dies mid-job holds that one job this long before another takes it over. SMTP
   * timeouts are kept inside it. @default 300_000 (300 seconds)
   */
  jobLeaseMs: number;
  /**
   * `STORAGE_URL`: `s3://bucket/prefix` keeps uploads in an S3-compatible bucket (with `S3_ENDPOINT`,
   * `S3_REGION`, `S3_FORCE_PATH_STYLE`, and the SDK's `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`);
   * `file:///folder` in that folder. @default { kind: "disk", dir: null } (DATA_DIR/uploads)
   */
  storage: StorageConfig;
  /**
   * `TIDINGS_WEBHOOK_ALLOW`: host names, addresses and CIDR ranges (comma-separated) webhooks may
   * reach although they are not public (loopback, private networks). Everything else must
   * resolve to a public address, checked at save time and on every connection and redirect.
   * @default none
   */
  webhookAllow: WebhookAllowList;
  /**
   * `TIDINGS_WEBHOOK_DISABLE_AFTER` (1-1000): deliveries in a row that fail every attempt (about
   * a day of retries each) before an endpoint is disabled and the workspace owners are mailed.
   * @default 5
   */
  webhookDisableAfter: number;
  /** `METRICS_ENABLED`: serve Prometheus metrics at `GET /metrics` and collect them (docs/metrics.md). @default false */
  metricsEnabled: boolean;
  /** `METRICS_TOKEN`: when set, `/metrics` answers only `Authorization: Bearer <token>` (at least 16 characters). @default null */
  metricsToken: string | null;
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/**
 * Reads and validates the configuration from environment variables.
 *
 * @example
 * ```ts
 * const config = loadConfig(process.env); // throws ConfigError naming the bad variable
 * ```
 */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR?.trim() || "./data");
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || "info") as Config["logLevel"];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError("LOG_LEVEL", `expected one of ${LOG_LEVELS.join(", ")}, got "${env.LOG_LEVEL}"`);
  }
  const adminToken = env.TIDINGS_ADMIN_TOKEN?.trim() || null;
  if (adminToken !== null && adminToken.length < 24) {
    throw new ConfigError("TIDINGS_ADMIN_TOKEN", "must be at least 24 characters long");
  }
  const setupCode = env.TIDINGS_SETUP_CODE?.trim() || null;
  if (setupCode !== null && !/^[A-Za-z0-9_-]{12,128}$/.test(setupCode)) {
    throw new ConfigError("TIDINGS_SETUP_CODE", "expected 12-128 letters, digits, '-' or '_' (it travels in the setup link)");
  }
  const host = env.HOST?.trim() || "0.0.0.0";
  const metricsToken = env.METRICS_TOKEN?.trim() || null;
  if (metricsToken !== null && metricsToken.length < 16) {
    throw new ConfigError("METRICS_TOKEN", "must be at least 16 characters long");
  }
  return {
    port: parsePort(env),
    host,
    dataDir,
    databaseUrl: parseDatabaseUrl(env, dataDir),
    publicUrl: parseUrl(env, "PUBLIC_URL"),
    trustProxy: parseTrustProxy(env),
    logLevel,
    demo: parseBool(env, "TIDINGS_DEMO", true),
    adminToken,
    setupCode,
    redisUrl: parseRedisUrl(env),
    cacheMaxMb: parseInteger(env, "TIDINGS_CACHE_MAX_MB", 64, 1, 65_536),
    heapGrowthPercent: parseInteger(env, "TIDINGS_HEAP_GROWTH_PERCENT", 50, 0, 300),
    rateLimits: parseRateLimits(env),
    production: env.NODE_ENV?.trim() === "production",
    turnstileVerifyUrl: parseUrl(env, "TURNSTILE_VERIFY_URL") ?? "https://challenges.cloudflare.com/turnstile/v0/siteverify",
    hcaptchaVerifyUrl: parseUrl(env, "HCAPTCHA_VERIFY_URL") ?? "https://api.hcaptcha.com/siteverify",
    recaptchaVerifyUrl: parseUrl(env, "RECAPTCHA_VERIFY_URL") ?? "https://www.google.com/recaptcha/api/siteverify",
    verificationTimeoutMs: parseInteger(env, "VERIFICATION_TIMEOUT_MS", 5000, 100, 60_000),
    altchaCost: parseInteger(env, "ALTCHA_COST", 2000, 1, 1_000_000),
    altchaMaxCounter: parseInteger(env, "ALTCHA_MAX_COUNTER", 5000, 2, 1_000_000),
    altchaJsCost: parseInteger(env, "ALTCHA_JS_COST", 100, 1, 1_000_000),
    altchaJsMaxCounter: parseInteger(env, "ALTCHA_JS_MAX_COUNTER", 100, 2, 1_000_000),
    smtpUrl: parseSmtpUrl(env),
    mailFrom: parseMailFrom(env),
    role: parseRole(env),
    jobLeaseMs: parseInteger(env, "TIDINGS_JOB_LEASE_SECONDS", 300, 2, 86_400) * 1000,
    storage: parseStorage(env),
    webhookAllow: parseWebhookAllowEnv(env),
    webhookDisableAfter: parseInteger(env, "TIDINGS_WEBHOOK_DISABLE_AFTER", 5, 1, 1000),
    metricsEnabled: parseBool(env, "METRICS_ENABLED", false),
    metricsToken,
  };
}
