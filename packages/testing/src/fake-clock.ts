import type { Clock, Timers } from "../../server/src/clock.js";

/**
 * A clock tests move by hand, with timers that fire as it passes their time.
 *
 * @example
 * ```ts
 * const clock = new FakeClock("2026-01-01T00:00:00Z");
 * clock.setTimeout(() => console.log("due"), 5_000);
 * clock.advance(30_000); // logs "due"
 * ```
 */
export class FakeClock implements Clock, Timers {
  #now: number;
  #seq = 0;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();
  constructor(start: string | number = "2026-01-01T00:00:00.000Z") {
    this.#now = typeof start === "number" ? start : Date.parse(start);
  }
  now(): Date {
    return new Date(this.#now);
  }
  /** Moves time on by `ms`, firing each timer due on the way at its own time, in order. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= until && (next === undefined || entry[1].at < next[1].at)) next = entry;
      if (next === undefined) break;
      this.#timers.delete(next[0]);
      this.#now = Math.max(this.#now, next[1].at);
      next[1].fn();
    }
    this.#now = until;
  }
  setTimeout(fn: () => void, ms: number): number {
    this.#seq++;
    this.#timers.set(this.#seq, { at: this.#now + Math.max(0, ms), fn });
    return this.#seq;
  }
  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }
  /** When the earliest pending timer fires, in ms from now (undefined when none is pending). */
  get nextTimerIn(): number | undefined {
    let at: number | undefined;
    for (const timer of this.#timers.values()) at = at === undefined ? timer.at : Math.min(at, timer.at);
    return at === undefined ? undefined : at - this.#now;
  }
}
