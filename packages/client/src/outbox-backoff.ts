import { RateLimitedException } from "./errors.js";

/**
 * The wait before attempt `attempts + 1`: exponential backoff from `initialDelayMs` up to
 * `maxDelayMs` with equal jitter (half the delay fixed, half random), at least the server's `Retry-After`.
 */
export function retryDelay(attempts: number, error: unknown, initialDelayMs: number, maxDelayMs: number, random: () => number): number {
  const delay = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.max(0, attempts - 1));
  const hint = error instanceof RateLimitedException ? (error.retryAfterMs ?? 0) : 0;
  return Math.round(Math.max(delay / 2 + (random() * delay) / 2, hint));
}
