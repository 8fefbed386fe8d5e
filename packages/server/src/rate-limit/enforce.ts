import type { FastifyRequest } from "fastify";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { RateLimitBucket } from "./buckets.js";
import type { RateLimiter } from "./rate-limiter.js";

/** Limiters whose last hit failed: an outage is logged when it starts and when it ends, not per request. */
const down = new WeakSet<RateLimiter>();

/**
 * Spends one request of `bucket` for the client's IP (`request.ip`, which honours
 * TRUST_PROXY); call it first in a handler, before any lookup. Past the limit it throws
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
    result = await limiter.hit(bucket, request.ip, ctx.config.rateLimits[bucket]);
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
