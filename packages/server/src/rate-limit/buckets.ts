import type { RateLimitRule } from "./rate-limiter.js";

/**
 * Per-IP limits of the public API (wire contract §8), each overridable by the variable
 * {@link rateLimitVariable} names.
 *
 * @example
 * ```ts
 * DEFAULT_RATE_LIMITS.search; // { limit: 30, windowSeconds: 60 }
 * ```
 */
export const DEFAULT_RATE_LIMITS = {
  /** Feature-request listings with a search query. */
  search: { limit: 30, windowSeconds: 60 },
  /** Plain feature-request listings (no query). */
  list: { limit: 60, windowSeconds: 60 },
  /** Vote and unvote. */
  vote: { limit: 20, windowSeconds: 60 },
  /** Comments, changelog, roadmap columns and versions. */
  public_read: { limit: 60, windowSeconds: 60 },
  /** Changelog subscribe, comment posts, proposals. */
  public_write: { limit: 10, windowSeconds: 60 },
  /** `GET /api/v1/public/config/:appKey`. */
  config: { limit: 60, windowSeconds: 60 },
  /** `PUT /api/v1/public/apps/:appKey/user` and the profile read. */
  user: { limit: 60, windowSeconds: 60 },
  /** Uploads: multipart uploads, upload sessions and session PUTs. */
  upload: { limit: 30, windowSeconds: 60 },
  /** `POST /api/v1/feedback`. */
  feedback: { limit: 10, windowSeconds: 60 },
  /** Console sign-in, first-run setup and invitation acceptance (per IP; accounts also lock, see console/login-lockout.ts). */
  login: { limit: 10, windowSeconds: 60 },
} as const satisfies Record<string, RateLimitRule>;

/** A named group of routes that share one per-IP budget. */
export type RateLimitBucket = keyof typeof DEFAULT_RATE_LIMITS;

/** The rule of every bucket, as configured. */
export type RateLimitRules = Record<RateLimitBucket, RateLimitRule>;

/** Every bucket, in the order of {@link DEFAULT_RATE_LIMITS}. */
export const RATE_LIMIT_BUCKETS = Object.keys(DEFAULT_RATE_LIMITS) as RateLimitBucket[];

/**
 * The environment variable that overrides a bucket's rule.
 *
 * @example
 * ```ts
 * rateLimitVariable("public_read"); // "TIDINGS_RATE_LIMIT_PUBLIC_READ"
 * ```
 */
export function rateLimitVariable(bucket: RateLimitBucket): string {
  return `TIDINGS_RATE_LIMIT_${bucket.toUpperCase()}`;
}
