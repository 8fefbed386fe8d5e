import { RetryLater } from "../jobs/job-outcomes.js";

/** At most one write of an issue's demand block per this long, however many votes arrive. */
export const DEMAND_INTERVAL_MS = 60_000;

/**
 * When the next write of a link's demand block may run: a minute after the last one, or now
 * when there was none for a minute.
 *
 * @example
 * ```ts
 * demandJob(link.id, nextDemandWrite(link.pushedAt, Date.now()));
 * ```
 */
export function nextDemandWrite(pushedAt: string | null, nowMs: number): Date {
  return new Date(Math.max(nowMs, pushedAt === null ? 0 : Date.parse(pushedAt) + DEMAND_INTERVAL_MS));
}

/**
 * Throws {@link RetryLater} when a demand write must wait: the tracker asked the connection to
 * pause, or the block was written less than {@link DEMAND_INTERVAL_MS} ago.
 *
 * @example
 * ```ts
 * holdDemandWrite(row.pausedUntil, row.pushedAt, ctx.clock.now().getTime(), "Linear");
 * ```
 */
export function holdDemandWrite(pausedUntil: string | null, pushedAt: string | null, nowMs: number, service: string): void {
  if (pausedUntil !== null && Date.parse(pausedUntil) > nowMs) throw new RetryLater(`${service} asked to pause`, Date.parse(pausedUntil) - nowMs);
  if (pushedAt !== null && nowMs - Date.parse(pushedAt) < DEMAND_INTERVAL_MS) {
    throw new RetryLater("written less than a minute ago", Date.parse(pushedAt) + DEMAND_INTERVAL_MS - nowMs);
  }
}
