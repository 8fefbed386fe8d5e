import type { Clock } from "../clock.js";

/**
 * A clock tests move by hand.
 *
 * @example
 * ```ts
 * const clock = new FakeClock("2026-01-01T00:00:00Z");
 * clock.advance(30_000);
 * ```
 */
export class FakeClock implements Clock {
  #now: number;
  constructor(start: string | number = "2026-01-01T00:00:00.000Z") {
    this.#now = typeof start === "number" ? start : Date.parse(start);
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}
