import path from "node:path";
import { fileURLToPath } from "node:url";
import { normalizePrefix } from "./storage/object-storage.js";
import { NO_WEBHOOK_ALLOW, parseWebhookAllow, type WebhookAllowList } from "./webhooks/address-guard.js";
import { DEFAULT_RATE_LIMITS, PER_CALLER_BUCKETS, RATE_LIMIT_BUCKETS, rateLimitVariable, type RateLimitRules } from "./rate-limit/buckets.js";

/** Where uploads are kept: a folder on local disk, or a bucket of an S3-compatible service. */
export type StorageConfig =
  | {
      kind: "disk";
      /** Absolute folder; null keeps uploads in `DATA_DIR/uploads`. */
      dir: string | null;
    }
  | {
      kind: "s3";
      bucket: string;
      /** Folder inside the bucket, without surrounding slashes; `""` for the root. */
      prefix: string;
      /** `S3_ENDPOINT`: the service's URL (MinIO, R2, Backblaze); null for AWS S3. @default null */
      endpoint: string | null;
      /** `S3_REGION` (`auto` on R2). @default "us-east-1" */
      region: string;
      /** `S3_FORCE_PATH_STYLE`: bucket in the path, not the host name (MinIO needs it). @default false */
      forcePathStyle: boolean;
    };

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

/** What one instance does; see {@link Config.role}. */
export type InstanceRole = "web" | "worker" | "all";

const ROLES: readonly InstanceRole[] = ["web", "worker", "all"];

/** A configuration problem that names the variable at fault. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function parseBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(name, `expected true/false (or 1/0), got "${env[name]}"`);
}

function parseRole(env: Env): InstanceRole {
  const raw = env.TIDINGS_ROLE?.trim().toLowerCase();
  if (raw === undefined || raw === "") return "all";
  if (!(ROLES as readonly string[]).includes(raw)) throw new ConfigError("TIDINGS_ROLE", `expected web, worker or all, got "${env.TIDINGS_ROLE}"`);
  return raw as InstanceRole;
}

function parsePort(env: Env): number {
  const raw = env.PORT?.trim();
  if (raw === undefined || raw === "") return 8787;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError("PORT", `expected a port number 0-65535, got "${raw}"`);
  }
  return Number(raw);
}

function parseTrustProxy(env: Env): Config["trustProxy"] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === "" || ["false", "0", "no", "off"].includes(raw.toLowerCase())) return false;
  if (["true", "yes", "on"].includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const parts = raw.split(",").map((p) => p.trim()).filter(Boolean);
  const addressLike = /^(?:[0-9.]+|[0-9a-fA-F:]+)(?:\/\d{1,3})?$|^(?:loopback|linklocal|uniquelocal)$/;
  const bad = parts.find((p) => !addressLike.test(p));
  if (bad !== undefined || parts.length === 0) {
    throw new ConfigError(
      "TRUST_PROXY",
      `expected true, false, a hop count, or comma-separated addresses/CIDRs; "${bad ?? raw}" is none of these`,
    );
  }
  return parts;
}

function parseInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected an integer ${min}-${max}, got "${raw}"`);
  }
  return Number(raw);
}

function parseUrl(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(name, `expected an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

function parseDatabaseUrl(env: Env, dataDir: string): string {
  const raw = env.DATABASE_URL?.trim();
  if (raw === undefined || raw === "") return `sqlite:${path.join(dataDir, "tidings.db")}`;
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError("DATABASE_URL", "is not a valid postgres:// URL");
    }
    return raw;
  }
  if (raw.startsWith("sqlite:")) return raw;
  throw new ConfigError("DATABASE_URL", "expected a postgres:// URL, sqlite:<file>, or unset for SQLite in DATA_DIR");
}

/** An optional service URL (it may carry a password, so a bad value is never echoed). */
function parseServiceUrl(env: Env, name: string, protocols: readonly string[], expected: string): string | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return null;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url === undefined || !protocols.includes(url.protocol) || url.hostname === "") throw new ConfigError(name, expected);
  return raw;
}

function parseRedisUrl(env: Env): string | null {
  return parseServiceUrl(env, "REDIS_URL", ["redis:", "rediss:"], "expected a redis:// or rediss:// URL with a host, or unset to keep rate limits in memory");
}

function parseSmtpUrl(env: Env): string | null {
  return parseServiceUrl(env, "SMTP_URL", ["smtp:", "smtps:"], "expected an smtp:// or smtps:// URL with a host, or unset to write mail to DATA_DIR/outbox");
}

function parseMailFrom(env: Env): string {
  const raw = env.MAIL_FROM?.trim();
  if (raw === undefined || raw === "") return "Tidings <no-reply@localhost>";
  if (/[\r\n]/.test(raw) || !/^(?:[^<>@]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(raw)) {
    throw new ConfigError("MAIL_FROM", `expected an address or "Name <address>", got "${raw}"`);
  }
  return raw;
}

const S3_VARIABLES = ["S3_ENDPOINT", "S3_REGION", "S3_FORCE_PATH_STYLE"] as const;

function parseStorage(env: Env): StorageConfig {
  const raw = env.STORAGE_URL?.trim() ?? "";
  const expected = "expected s3://<bucket>[/<prefix>], file:///<absolute folder>, or unset for DATA_DIR/uploads";
  if (raw === "" || raw.startsWith("file:")) {
    const set = S3_VARIABLES.find((name) => (env[name]?.trim() ?? "") !== "");
    if (set !== undefined) throw new ConfigError(set, "is set, but STORAGE_URL is not an s3:// URL, so uploads would stay on local disk");
    if (raw === "") return { kind: "disk", dir: null };
    let dir: string;
    try {
      dir = fileURLToPath(raw);
    } catch {
      throw new ConfigError("STORAGE_URL", expected);
    }
    return { kind: "disk", dir: path.resolve(dir) };
  }
  const match = /^s3:\/\/([^/?#@:]+)(\/[^?#]*)?$/.exec(raw);
  if (match === null) throw new ConfigError("STORAGE_URL", `${expected} (keys go in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, not the URL)`);
  const bucket = match[1]!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError("STORAGE_URL", `"${bucket}" is not a bucket name (3-63 lowercase letters, digits, dots and hyphens)`);
  }
  let prefix: string;
  try {
    prefix = normalizePrefix(match[2] ?? "");
  } catch {
    throw new ConfigError("STORAGE_URL", "the prefix after the bucket must be folder names of letters, digits, '.', '_' and '-', without '..' or empty segments");
  }
  const region = env.S3_REGION?.trim() || "us-east-1";
  if (!/^[a-z0-9-]{1,32}$/.test(region)) throw new ConfigError("S3_REGION", `expected a region name such as us-east-1 or auto, got "${region}"`);
  const keyId = (env.AWS_ACCESS_KEY_ID?.trim() ?? "") !== "";
  const secret = (env.AWS_SECRET_ACCESS_KEY?.trim() ?? "") !== "";
  if (keyId !== secret) {
    throw new ConfigError(keyId ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID", "set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither");
  }
  return { kind: "s3", bucket, prefix, endpoint: parseUrl(env, "S3_ENDPOINT"), region, forcePathStyle: parseBool(env, "S3_FORCE_PATH_STYLE", false) };
}

function parseRateLimits(env: Env): RateLimitRules {
  const rules = {} as RateLimitRules;
  for (const bucket of RATE_LIMIT_BUCKETS) {
    const name = rateLimitVariable(bucket);
    const raw = env[name]?.trim();
    if (raw === undefined || raw === "") {
      rules[bucket] = { ...DEFAULT_RATE_LIMITS[bucket] };
      continue;
    }
    const match = /^(\d+)\s*\/\s*(\d+)$/.exec(raw);
    const limit = Number(match?.[1]);
    const windowSeconds = Number(match?.[2]);
    if (match === null || !Number.isSafeInteger(limit) || limit < 1 || windowSeconds < 1 || windowSeconds > 86_400) {
      throw new ConfigError(name, `expected <requests>/<seconds> such as "30/60" (requests ≥ 1, seconds 1-86400), got "${raw}"`);
    }
    rules[bucket] = { ...DEFAULT_RATE_LIMITS[bucket], limit, windowSeconds };
  }
  for (const bucket of PER_CALLER_BUCKETS) {
    const name = rateLimitVariable(bucket, "perIp");
    const raw = env[name]?.trim();
    if (raw === undefined || raw === "") {
      // A per-user limit raised past the default cap raises the cap with it.
      const { limit, perIp = limit } = rules[bucket];
      rules[bucket] = { ...rules[bucket], perIp: Math.max(perIp, limit) };
      continue;
    }
    const perIp = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(perIp) || perIp < rules[bucket].limit) {
      throw new ConfigError(name, `expected the requests one IP may send per window over all its users, at least the bucket's ${rules[bucket].limit}, got "${raw}"`);
    }
    rules[bucket] = { ...rules[bucket], perIp };
  }
  return rules;
}

function parseWebhookAllowEnv(env: Env): WebhookAllowList {
  const raw = env.TIDINGS_WEBHOOK_ALLOW?.trim() ?? "";
  if (raw === "") return NO_WEBHOOK_ALLOW;
  try {
    return parseWebhookAllow(raw);
  } catch (error) {
    throw new ConfigError("TIDINGS_WEBHOOK_ALLOW", (error as Error).message);
  }
}

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
