/**
 * The clock and timer functions the SDK uses, injectable so tests run on fake time. Defaults read
 * the globals at call time, so `vi.useFakeTimers()` also works.
 */
export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer `setTimeout` returned. */
  clearTimeout(handle: unknown): void;
}

/** The real clock and timers. */
export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
