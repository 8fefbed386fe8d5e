import type { FastifyRequest } from "fastify";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { BucketRule, RateLimitBucket } from "./buckets.js";
import { rateLimitCaller } from "./caller.js";
import type { RateLimiter, RateLimitResult } from "./rate-limiter.js";

/** Limiters whose last hit failed: an outage is logged when it starts and when it ends, not per request. */
const down = new WeakSet<RateLimiter>();

/**
 * The caller's budget first, then (if that allowed it) the IP's cap: a caller over its own limit
 * is refused without spending the cap, so one runaway client cannot lock out the others behind
 * its address, while fresh tokens each pass their own check and all spend the cap.
 */
async function spend(limiter: RateLimiter, request: FastifyRequest, bucket: RateLimitBucket, rule: BucketRule): Promise<RateLimitResult> {
  if (rule.perIp === undefined) return limiter.hit(bucket, request.ip, rule);
  const caller = await limiter.hit(bucket, rateLimitCaller(request), rule);
  if (!caller.allowed) return caller;
  return limiter.hit(perIpBucket(bucket), request.ip, { limit: rule.perIp, windowSeconds: rule.windowSeconds });
}

/**
 * The limiter's name of a bucket's per-IP cap (`tidings:rl:vote-per-ip:<ip>` in Redis).
 *
 * @example
 * ```ts
 * perIpBucket("vote"); // "vote-per-ip"
 * ```
 */
export function perIpBucket(bucket: RateLimitBucket): string {
  return `${bucket}-per-ip`;
}

/**
 * Spends one request of `bucket`: per client IP (`request.ip`, which honours TRUST_PROXY), or,
 * for a bucket with a per-IP cap, per caller (see {@link rateLimitCaller}) and per IP. Call it
 * first in a handler, before any lookup. Past the limit it throws
 * `429 rate_limited` with `Retry-After` and `message` (default: the registry's generic one).
 * If the limiter itself fails (Redis down) the request goes through and the failure is
 * logged once per outage: a limit guards capacity and must not take the public API down with
 * it, nor flood the log while Redis is away.
 *
 * @example
 * ```ts
 * await enforceRateLimit(ctx, request, "search", "Too many searches. Please try again shortly.");
 * ```
 */
export async function enforceRateLimit(
  ctx: Context,
  request: FastifyRequest,
  bucket: RateLimitBucket,
  message?: string,
): Promise<void> {
  const limiter = ctx.rateLimiter;
  let result;
  try {
    result = await spend(limiter, request, bucket, ctx.config.rateLimits[bucket]);
  } catch (error) {
    if (!down.has(limiter)) {
      down.add(limiter);
      request.log.error({ err: error, bucket }, "rate limiter unavailable; requests are let through until it is back");
    }
    return;
  }
  if (down.delete(limiter)) request.log.info({ bucket }, "rate limiter back; limits apply again");
  if (result.allowed) return;
  ctx.metrics.rateLimitRefusals.inc({ bucket });
  throw new ApiError("rate_limited", {
    ...(message === undefined ? {} : { message }),
    headers: { "Retry-After": String(result.retryAfterSeconds) },
  });
}
