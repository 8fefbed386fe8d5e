import { Gauge, type Registry } from "prom-client";
import type { Clock } from "../clock.js";
import type { QueueDepth } from "../jobs/queue-reports.js";

/** The job gauges, which query the queue when scraped: the unfinished jobs and the oldest one's age, by kind. */
export function registerJobGauges(
  registers: Registry[],
  sources: { clock: Clock; queueDepth: () => Promise<QueueDepth[]>; onCollectError: (error: unknown) => void },
): void {
  // Both job gauges are read in one scrape (prom-client collects them together): one query serves both.
  let reading: Promise<QueueDepth[] | undefined> | undefined;
  const depth = (): Promise<QueueDepth[] | undefined> =>
    (reading ??= sources
      .queueDepth()
      .catch((error: unknown) => {
        sources.onCollectError(error);
        return undefined;
      })
      .finally(() => {
        reading = undefined;
      }));
  new Gauge({
    name: "tidings_jobs_queued",
    help: "Background jobs not finished yet (pending, waiting for a retry, or running), by kind",
    labelNames: ["kind"],
    registers,
    async collect() {
      const rows = await depth();
      this.reset();
      for (const row of rows ?? []) this.set({ kind: row.kind }, row.queued);
    },
  });
  new Gauge({
    name: "tidings_jobs_oldest_age_seconds",
    help: "Seconds since the oldest unfinished background job of each kind was queued",
    labelNames: ["kind"],
    registers,
    async collect() {
      const rows = await depth();
      this.reset();
      const now = sources.clock.now().getTime();
      for (const row of rows ?? []) this.set({ kind: row.kind }, Math.max(0, (now - Date.parse(row.oldestCreatedAt)) / 1000));
    },
  });
}
