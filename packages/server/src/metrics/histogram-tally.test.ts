import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { HistogramTally } from "./histogram-tally.js";

const BUCKETS = [0.001, 0.01, 0.1, 1];
const config = { name: "t_duration_seconds", help: "Test durations", labelNames: ["route", "status_class"] as const, buckets: BUCKETS };
// On a bound (counted in it), between bounds, zero, and past the last bound (only in +Inf).
const OBSERVATIONS: [Record<"route" | "status_class", string>, number][] = [
  [{ route: "/a/:id", status_class: "2xx" }, 0.001],
  [{ route: "/a/:id", status_class: "2xx" }, 0.0005],
  [{ route: "/a/:id", status_class: "2xx" }, 0],
  [{ route: "/a/:id", status_class: "2xx" }, 0.05],
  [{ route: "/a/:id", status_class: "2xx" }, 1],
  [{ route: "/a/:id", status_class: "2xx" }, 7.25],
  [{ route: "/a/:id", status_class: "5xx" }, 0.2],
  // A label value the exposition escapes.
  [{ route: 'odd "route"\\x', status_class: "4xx" }, 0.01],
];

async function exposition(observe: (registry: Registry) => void): Promise<string> {
  const registry = new Registry();
  observe(registry);
  return registry.metrics();
}

describe("HistogramTally", () => {
  it("exposes exact cumulative buckets, sum and count per label set", async () => {
    const text = await exposition((registry) => {
      const tally = new HistogramTally({ ...config, registers: [registry] });
      for (const [labels, value] of OBSERVATIONS) tally.observe(labels, value);
    });
    const [family] = parsePrometheusTextFormat(text);
    expect(family).toMatchObject({ name: "t_duration_seconds", type: "HISTOGRAM" });
    const lines = text.split("\n");
    const sample = (name: string, labels: string) => {
      const line = lines.find((l) => l.startsWith(`${name}{${labels}} `));
      expect(line, `${name}{${labels}}`).toBeDefined();
      return Number(line!.slice(line!.lastIndexOf(" ") + 1));
    };
    const a = 'route="/a/:id",status_class="2xx"';
    expect(BUCKETS.map((le) => sample("t_duration_seconds_bucket", `le="${le}",${a}`))).toEqual([3, 3, 4, 5]);
    expect(sample("t_duration_seconds_bucket", `le="+Inf",${a}`)).toBe(6);
    expect(sample("t_duration_seconds_sum", a)).toBeCloseTo(0.001 + 0.0005 + 0.05 + 1 + 7.25, 12);
    expect(sample("t_duration_seconds_count", a)).toBe(6);
    const b = 'route="/a/:id",status_class="5xx"';
    expect(BUCKETS.map((le) => sample("t_duration_seconds_bucket", `le="${le}",${b}`))).toEqual([0, 0, 0, 1]);
    expect(sample("t_duration_seconds_count", b)).toBe(1);
    const c = 'route="odd \\"route\\"\\\\x",status_class="4xx"';
    expect(BUCKETS.map((le) => sample("t_duration_seconds_bucket", `le="${le}",${c}`))).toEqual([0, 1, 1, 1]);
    expect(sample("t_duration_seconds_sum", c)).toBe(0.01);
  });

  it("writes the same exposition and JSON as prom-client's own Histogram", async () => {
    const ours = new Registry();
    const tally = new HistogramTally({ ...config, registers: [ours] });
    const theirs = new Registry();
    const histogram = new Histogram({ ...config, labelNames: [...config.labelNames], registers: [theirs] });
    for (const [labels, value] of OBSERVATIONS) {
      tally.observe(labels, value);
      histogram.observe(labels, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it("keeps one series per label set, counts on a kept series, and refuses a value that is not a number", () => {
    const tally = new HistogramTally({ ...config, registers: [] });
    const kept = tally.series({ route: "/a/:id", status_class: "2xx" });
    expect(tally.series({ status_class: "2xx", route: "/a/:id" })).toBe(kept);
    kept.observe(0.002);
    tally.observe({ route: "/a/:id", status_class: "2xx" }, 0.003);
    expect([...tally.all()]).toHaveLength(1);
    expect(kept.count).toBe(2);
    expect(() => kept.observe(Number.NaN)).toThrow(TypeError);
    expect(kept.count).toBe(2);
  });
});
