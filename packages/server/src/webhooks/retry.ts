/**
 * Waits before each retry of a delivery (the schedule the Standard Webhooks guidance suggests):
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — eight attempts over about 27 hours.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];

/** How far a delay may move either way, so endpoints that failed together do not retry in step. */
export const RETRY_JITTER = 0.2;

/**
 * The wait before the attempt after attempt `attempts` (1-based), with ±20 % jitter.
 *
 * @example
 * ```ts
 * retryDelay(1); // 4_000 – 6_000
 * retryDelay(2, () => 0.5); // 300_000
 * ```
 */
export function retryDelay(attempts: number, random: () => number = Math.random): number {
  const base = WEBHOOK_RETRY_DELAYS_MS[Math.min(attempts, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? WEBHOOK_RETRY_DELAYS_MS[0]!;
  return Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}
