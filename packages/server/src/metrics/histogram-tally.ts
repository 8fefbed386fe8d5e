import { Histogram, type HistogramConfiguration } from "prom-client";

/**
 * One label set of a {@link HistogramTally}: plain counters per bucket, the sum and the count.
 * Hold on to it (per route, say) and call {@link HistogramSeries.observe} on the hot path: no
 * labels object, no hashing, no validation per call.
 */
export class HistogramSeries<L extends string = string> {
  /** Observations per bucket, not cumulative; the last slot is the `+Inf` bucket. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<L, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  /** Counts `value` in the first bucket whose upper bound is at least `value` (as prom-client does). */
  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const bounds = this.bounds;
    let i = 0;
    // A dozen bounds, and most observations land in the first few: a linear scan beats a binary search.
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

/** Exposes a tally's series through prom-client, exactly as a Histogram of the same configuration would. */
class TalliedHistogram<L extends string> extends Histogram<L> {
  constructor(
    config: HistogramConfiguration<L>,
    private readonly series: ReadonlyMap<string, HistogramSeries<L>>,
    private readonly bounds: readonly number[],
  ) {
    super(config);
  }

  /** What the registry formats (and `get()` splays): prom-client's own value layout. */
  getForPromString(): Promise<{ name: string; help: string; type: string; values: unknown[]; aggregator: string }> {
    const { name } = this as unknown as { name: string; help: string };
    const values: unknown[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += s.counts[i]!;
        values.push({ labels: { le: this.bounds[i] }, sharedLabels: s.labels, value: cumulative, metricName: `${name}_bucket`, exemplar: null });
      }
      values.push(
        { labels: { le: "+Inf" }, sharedLabels: s.labels, value: s.count, metricName: `${name}_bucket`, exemplar: null },
        { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${name}_sum`, exemplar: undefined },
        { labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${name}_count`, exemplar: undefined },
      );
    }
    const self = this as unknown as { help: string; type: string; aggregator: string };
    return Promise.resolve({ name, help: self.help, type: self.type, values, aggregator: self.aggregator });
  }

  override reset(): void {
    // prom-client's constructor resets too, before this class has its fields.
    const series = this.series as ReadonlyMap<string, HistogramSeries<L>> | undefined;
    for (const s of series?.values() ?? []) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}

/**
 * A histogram for the request path: observations go to plain arrays per label set
 * ({@link HistogramSeries}), and prom-client reads them when the registry is scraped, in the
 * same exposition (names, labels, buckets, `_sum`, `_count`) as its own Histogram. prom-client's
 * `observe` validates and hashes the labels on every call (about half a microsecond).
 *
 * @example
 * ```ts
 * const durations = new HistogramTally({ name: "tidings_http_request_duration_seconds", help: "…", labelNames: ["route"], buckets: [0.01, 0.1, 1], registers: [registry] });
 * const config = durations.series({ route: "/api/v1/public/config/:appKey" }); // once, kept
 * config.observe(0.004); // per request
 * ```
 */
export class HistogramTally<L extends string> {
  readonly #series = new Map<string, HistogramSeries<L>>();
  readonly #labelNames: readonly L[];
  readonly #bounds: readonly number[];
  /** The prom-client metric in the registry (read-only use: scrapes and `get()`). */
  readonly histogram: Histogram<L>;

  constructor(config: HistogramConfiguration<L> & { labelNames: readonly L[]; buckets: readonly number[] }) {
    this.#labelNames = config.labelNames;
    this.#bounds = [...config.buckets].sort((a, b) => a - b);
    this.histogram = new TalliedHistogram({ ...config, buckets: [...this.#bounds] }, this.#series, this.#bounds);
  }

  /** The series of `labels` (created empty on first use, and shown from then on). */
  series(labels: Record<L, string>): HistogramSeries<L> {
    let key = "";
    for (const name of this.#labelNames) {
      if (typeof labels[name] !== "string") throw new Error(`Missing label "${name}"`);
      key += `${labels[name]}\u0000`;
    }
    let series = this.#series.get(key);
    if (series === undefined) {
      const own = {} as Record<L, string>;
      for (const name of this.#labelNames) own[name] = labels[name];
      series = new HistogramSeries(own, this.#bounds);
      this.#series.set(key, series);
    }
    return series;
  }

  /** Every series, in the order they were first used. */
  all(): IterableIterator<HistogramSeries<L>> {
    return this.#series.values();
  }

  /** Observes `value` in the series of `labels` (for code off the hot path; keep a series otherwise). */
  observe(labels: Record<L, string>, value: number): void {
    this.series(labels).observe(value);
  }
}
