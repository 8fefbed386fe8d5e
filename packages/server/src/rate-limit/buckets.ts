import type { RateLimitRule } from "./rate-limiter.js";

/**
 * A bucket's rule. Without `perIp` every request of a client IP spends one budget of `limit`
 * (search, console sign-in). With it, `limit` is each caller's own budget — a caller being the
 * user token or SSO token the request carries, or the IP itself for requests without one — and
 * `perIp` caps all callers of one IP together, so many users behind one address (a school, an
 * office, a carrier's NAT) each get their own budget while a flood from the address, token-rotating
 * or not, stops at the cap.
 */
export interface BucketRule extends RateLimitRule {
  /** Requests per window from one IP, all its callers together; unset, `limit` is per IP. */
  perIp?: number;
}

/**
 * Limits of the public API (wire contract §8), each overridable by the variables
 * {@link rateLimitVariable} names. Per-IP caps are sized for about 500 users behind one address
 * spending a few requests a minute each.
 *
 * @example
 * ```ts
 * DEFAULT_RATE_LIMITS.search; // { limit: 30, windowSeconds: 60 }
 * DEFAULT_RATE_LIMITS.vote; // { limit: 20, windowSeconds: 60, perIp: 2000 }
 * ```
 */
export const DEFAULT_RATE_LIMITS = {
  /** Feature-request listings with a search query (per IP, as the wire contract says). */
  search: { limit: 30, windowSeconds: 60 },
  /** Plain feature-request listings (no query) and the portal's pages. */
  list: { limit: 60, windowSeconds: 60, perIp: 3000 },
  /** Vote and unvote. */
  vote: { limit: 20, windowSeconds: 60, perIp: 2000 },
  /** Comments, changelog, roadmap columns and versions. */
  public_read: { limit: 60, windowSeconds: 60, perIp: 3000 },
  /** Changelog subscribe, comment posts, proposals. */
  public_write: { limit: 10, windowSeconds: 60, perIp: 1000 },
  /** `GET /api/v1/public/config/:appKey`. */
  config: { limit: 60, windowSeconds: 60, perIp: 3000 },
  /** `PUT /api/v1/public/apps/:appKey/user` and the profile read. */
  user: { limit: 60, windowSeconds: 60, perIp: 3000 },
  /** Uploads: multipart uploads, upload sessions and session PUTs. */
  upload: { limit: 30, windowSeconds: 60, perIp: 1000 },
  /** `POST /api/v1/feedback`. */
  feedback: { limit: 10, windowSeconds: 60, perIp: 1000 },
  /** Console sign-in, first-run setup and invitation acceptance (per IP; accounts also lock, see console/login-lockout.ts). */
  login: { limit: 10, windowSeconds: 60 },
  /** `POST /mcp`, the MCP server over HTTP (per IP: each tool call of an assistant is one request). */
  mcp: { limit: 300, windowSeconds: 60 },
} as const satisfies Record<string, BucketRule>;

/** A named group of routes that share one budget. */
export type RateLimitBucket = keyof typeof DEFAULT_RATE_LIMITS;

/** The rule of every bucket, as configured. */
export type RateLimitRules = Record<RateLimitBucket, BucketRule>;

/** Every bucket, in the order of {@link DEFAULT_RATE_LIMITS}. */
export const RATE_LIMIT_BUCKETS = Object.keys(DEFAULT_RATE_LIMITS) as RateLimitBucket[];

/** The buckets counted per caller with a per-IP cap by default. */
export const PER_CALLER_BUCKETS = RATE_LIMIT_BUCKETS.filter((bucket) => "perIp" in DEFAULT_RATE_LIMITS[bucket]);

/**
 * The environment variable that overrides a bucket's rule (`<requests>/<seconds>`); with
 * `perIp`, the one that overrides its per-IP cap (`<requests>`, over the same window).
 *
 * @example
 * ```ts
 * rateLimitVariable("public_read"); // "TIDINGS_RATE_LIMIT_PUBLIC_READ"
 * rateLimitVariable("vote", "perIp"); // "TIDINGS_RATE_LIMIT_VOTE_PER_IP"
 * ```
 */
export function rateLimitVariable(bucket: RateLimitBucket, part?: "perIp"): string {
  return `TIDINGS_RATE_LIMIT_${bucket.toUpperCase()}${part === "perIp" ? "_PER_IP" : ""}`;
}
