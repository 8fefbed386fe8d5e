import path from "node:path";
import { NO_WEBHOOK_ALLOW, parseWebhookAllow, type WebhookAllowList } from "../webhooks/address-guard.js";
import { ConfigError, parseServiceUrl, type Env } from "./env.js";

/** `DATABASE_URL`: a postgres:// URL or `sqlite:<file>`, SQLite in `dataDir` when unset. */
export function parseDatabaseUrl(env: Env, dataDir: string): string {
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

/** `REDIS_URL`: a redis:// or rediss:// URL, null when unset. */
export function parseRedisUrl(env: Env): string | null {
  return parseServiceUrl(env, "REDIS_URL", ["redis:", "rediss:"], "expected a redis:// or rediss:// URL with a host, or unset to keep rate limits in memory");
}

/** `SMTP_URL`: an smtp:// or smtps:// URL, null when unset. */
export function parseSmtpUrl(env: Env): string | null {
  return parseServiceUrl(env, "SMTP_URL", ["smtp:", "smtps:"], "expected an smtp:// or smtps:// URL with a host, or unset to write mail to DATA_DIR/outbox");
}

/** `MAIL_FROM`: an address or `Name <address>`. */
export function parseMailFrom(env: Env): string {
  const raw = env.MAIL_FROM?.trim();
  if (raw === undefined || raw === "") return "Tidings <no-reply@localhost>";
  if (/[\r\n]/.test(raw) || !/^(?:[^<>@]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(raw)) {
    throw new ConfigError("MAIL_FROM", `expected an address or "Name <address>", got "${raw}"`);
  }
  return raw;
}

/** `TIDINGS_WEBHOOK_ALLOW`: the hosts and ranges webhooks may reach though they are not public. */
export function parseWebhookAllowEnv(env: Env): WebhookAllowList {
  const raw = env.TIDINGS_WEBHOOK_ALLOW?.trim() ?? "";
  if (raw === "") return NO_WEBHOOK_ALLOW;
  try {
    return parseWebhookAllow(raw);
  } catch (error) {
    throw new ConfigError("TIDINGS_WEBHOOK_ALLOW", (error as Error).message);
  }
}
