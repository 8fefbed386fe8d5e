import { randomBytes } from "node:crypto";

/**
 * The Redis the "with Redis" figures use: `BENCH_REDIS_URL`, default the local one; `off` skips them.
 * Each run keys its cache under a prefix of its own.
 */
export function benchRedis(): { url: string; cachePrefix: string } | null {
  const url = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
  if (url === "off") return null;
  return { url, cachePrefix: `tidings-bench-${randomBytes(4).toString("hex")}:` };
}

/** Why a server with REDIS_URL could not start (no Redis there), or rethrows anything else. */
export function redisSkipReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith("REDIS_URL:")) return message;
  throw error;
}
