import type { SharedCache } from "../cache/shared-cache.js";
import type { Mailer } from "../mail/mailer.js";
import type { Metrics } from "./metrics.js";
import type { TallySeries } from "./tally.js";

/** The `cache` label of a key: its prefix before the first `:` (`fr-list:app_1:…` → `fr-list`). */
export function cacheName(key: string): string {
  const colon = key.indexOf(":");
  const prefix = colon === -1 ? key : key.slice(0, colon);
  // Prefixes are literals in our code; anything else stays one series rather than one per key.
  return /^[a-z][a-z0-9-]{0,31}$/.test(prefix) ? prefix : "other";
}

/**
 * `cache` counting each read as a hit or a miss in `metrics.cacheLookups`.
 *
 * @example
 * ```ts
 * const cache = countingCache(new MemoryCache(clock), metrics);
 * ```
 */
export function countingCache(cache: SharedCache, metrics: Metrics): SharedCache {
  // The hit and miss series of each prefix seen, so a read does not build labels or a key.
  const byPrefix = new Map<string, { hit: TallySeries<"cache" | "result">; miss: TallySeries<"cache" | "result"> }>();
  const seriesOf = (key: string) => {
    const colon = key.indexOf(":");
    const prefix = colon === -1 ? key : key.slice(0, colon);
    let series = byPrefix.get(prefix);
    if (series === undefined) {
      const name = cacheName(prefix);
      series = { hit: metrics.cacheLookups.series({ cache: name, result: "hit" }), miss: metrics.cacheLookups.series({ cache: name, result: "miss" }) };
      // Only our own prefixes are remembered: a stray one is looked up again rather than kept.
      if (name === prefix) byPrefix.set(prefix, series);
    }
    return series;
  };
  const count = (key: string, value: unknown) => {
    const series = seriesOf(key);
    if (value === undefined) series.miss.count++;
    else series.hit.count++;
  };
  return {
    get: <T>(key: string) =>
      cache.get<T>(key).then((value) => {
        count(key, value);
        return value;
      }),
    getMany: <T>(keys: readonly string[]) =>
      cache.getMany<T>(keys).then((values) => {
        keys.forEach((key, i) => count(key, values[i]));
        return values;
      }),
    set: (key, value, options) => cache.set(key, value, options),
    setMany: (entries) => cache.setMany(entries),
    invalidateTag: (tag) => cache.invalidateTag(tag),
  };
}

/**
 * `mailer` counting each send as sent or failed in `metrics.mailDeliveries` (a failed send is
 * retried by the job queue, so one mail may count as failed more than once before it is sent).
 *
 * @example
 * ```ts
 * const mailer = countingMailer(createMailer(options, log), metrics);
 * ```
 */
export function countingMailer(mailer: Mailer, metrics: Metrics): Mailer {
  return {
    send: async (message) => {
      try {
        await mailer.send(message);
      } catch (error) {
        metrics.mailDeliveries.inc({ outcome: "failed" });
        throw error;
      }
      metrics.mailDeliveries.inc({ outcome: "sent" });
    },
    close: () => mailer.close(),
  };
}
