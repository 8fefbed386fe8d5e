/** A source of time, injected wherever behaviour depends on it so tests never sleep. */
export interface Clock {
  now(): Date;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** ISO-8601 UTC text as stored in the database. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

/** Timer functions, injected beside the {@link Clock} so tests move time by hand instead of sleeping. */
export interface Timers {
  /** Calls `fn` once after `ms`; the answer is a handle for {@link Timers.clearTimeout}. */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers, unref'd: a pending wake-up never keeps the process alive. */
export const systemTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
