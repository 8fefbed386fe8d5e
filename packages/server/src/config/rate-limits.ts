import { DEFAULT_RATE_LIMITS, PER_CALLER_BUCKETS, RATE_LIMIT_BUCKETS, rateLimitVariable, type RateLimitRules } from "../rate-limit/buckets.js";
import { ConfigError, type Env } from "./env.js";

/** Each bucket's rule (`TIDINGS_RATE_LIMIT_<BUCKET>`) and per-IP cap (`…_PER_IP`), the defaults where unset. */
export function parseRateLimits(env: Env): RateLimitRules {
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
