import type { SharedCache } from "./cache/shared-cache.js";
import type { Clock } from "./clock.js";
import type { Config } from "./config.js";
import type { Db } from "./db/database.js";
import type { Metrics } from "./metrics/metrics.js";
import type { RateLimiter } from "./rate-limit/rate-limiter.js";
import type { ObjectStorage } from "./storage/object-storage.js";

/** What every route and service is given: configuration, database, clock, cache, rate limiter, file storage and metrics. */
export interface Context {
  readonly config: Config;
  readonly db: Db;
  readonly clock: Clock;
  readonly cache: SharedCache;
  readonly rateLimiter: RateLimiter;
  /** Where uploaded files are stored. */
  readonly storage: ObjectStorage;
  /**
   * This instance's metrics. Always there, so code can count without asking; served at
   * `/metrics` (with HTTP, query, cache and mail instrumentation) only when `METRICS_ENABLED=1`.
   */
  readonly metrics: Metrics;
}

/** The cache tag that groups every cached answer derived from one app (console writes drop it). */
export function appTag(appId: string): string {
  return `app:${appId}`;
}

/**
 * The cache tag of answers built from an app's public content (request lists, counts, the
 * roadmap): votes, comments and proposals drop these without dropping the app's settings.
 */
export function appContentTag(appId: string): string {
  return `app-content:${appId}`;
}

/**
 * The cache tag of which requests an app lists (the count of its listed requests, the `trending`
 * ranking): proposals listed at once drop it with the content tag; proposals waiting for review,
 * votes and comments, which change no public request's visibility, keep it.
 */
export function appRequestSetTag(appId: string): string {
  return `app-requests:${appId}`;
}

/**
 * The cache tag of what is read from one request's comments (its first page of them): a comment
 * on it drops this alone, where the app's content tag would drop every request's.
 */
export function requestCommentsTag(requestId: string): string {
  return `request-comments:${requestId}`;
}

/** Tags for a cached answer built from an app's public content: dropped by console and public writes. */
export function contentTags(appId: string): string[] {
  return [appTag(appId), appContentTag(appId)];
}
