import type { Timers } from "./timers.js";

/** Tuning of the search pacing (spec: `searchRateLimiterOptions`). */
export interface SearchRateLimiterOptions {
  /** Least time between two query-bearing fetches, in ms. @default 2500 */
  minSpacingMs?: number | undefined;
  /** Pause of query searches after a 429 without `Retry-After`, in ms. @default 60000 */
  cooldownMs?: number | undefined;
}

export interface SearchPacerOptions extends SearchRateLimiterOptions {
  /** Quiet time after the last keystroke before anything is fetched, in ms. @default 250 */
  debounceMs?: number | undefined;
  /** Upper bound on a server's `Retry-After`, in ms. @default 120000 */
  maxCooldownMs?: number | undefined;
  /** @default the real clock and timers */
  timers?: Timers | undefined;
}
