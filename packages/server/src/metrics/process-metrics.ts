import { Counter, collectDefaultMetrics, type Registry } from "prom-client";

/**
 * Removes every gauge whose name ends in `_total`, a suffix Prometheus keeps for counters
 * (`promtool check metrics` reports each). prom-client's defaults have three
 * (`nodejs_active_handles_total`, `…_requests_total`, `…_resources_total`), each the sum of the
 * gauge of the same name without the suffix, which stays: `sum(nodejs_active_handles)`.
 */
function dropTotalGauges(registry: Registry): void {
  for (const metric of registry.getMetricsAsArray()) {
    const name = (metric as { name?: unknown }).name;
    if (!(metric instanceof Counter) && typeof name === "string" && name.endsWith("_total")) registry.removeSingleMetric(name);
  }
}

/** Node's process metrics (CPU, memory, event loop, GC) in `registry`, without their `_total` gauges. */
export function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  dropTotalGauges(registry);
}
