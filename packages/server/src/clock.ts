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
