import { Counter, type CounterConfiguration } from "prom-client";

/**
 * A counter for the request path: `inc` adds to a plain map entry (a few nanoseconds), and the
 * counts are handed to a prom-client counter when the registry is scraped. prom-client's own `inc`
 * validates and hashes the labels on every call, which is most of what metrics cost per request.
 *
 * @example
 * ```ts
 * const lookups = new Tally({ name: "tidings_cache_lookups_total", help: "…", labelNames: ["cache", "result"], registers: [registry] });
 * lookups.inc({ cache: "config", result: "hit" });
 * ```
 */
export class Tally<L extends string> {
  readonly #pending = new Map<string, TallySeries<L>>();
  readonly #labelNames: readonly L[];
  readonly counter: Counter<L>;

  constructor(config: CounterConfiguration<L> & { labelNames: readonly L[] }) {
    this.#labelNames = config.labelNames;
    const pending = this.#pending;
    this.counter = new Counter({
      ...config,
      collect() {
        for (const entry of pending.values()) {
          if (entry.count === 0) continue;
          this.inc(entry.labels, entry.count);
          entry.count = 0;
        }
      },
    });
  }

  /** The series of `labels`, to keep and count on with `series.count++` where the labels are known ahead. */
  series(labels: Record<L, string>): TallySeries<L> {
    let key = "";
    for (const name of this.#labelNames) key += `${labels[name]}\u0000`;
    let entry = this.#pending.get(key);
    if (entry === undefined) {
      entry = { labels: { ...labels }, count: 0 };
      this.#pending.set(key, entry);
    }
    return entry;
  }

  /** Adds one to the series of `labels`. */
  inc(labels: Record<L, string>): void {
    this.series(labels).count++;
  }
}

/** One label set of a {@link Tally}: `count` is what was counted since the last scrape. */
export interface TallySeries<L extends string> {
  readonly labels: Readonly<Record<L, string>>;
  count: number;
}
