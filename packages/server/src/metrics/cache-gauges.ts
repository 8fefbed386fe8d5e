import { Gauge, type Registry } from "prom-client";
import type { CacheStats } from "../cache/memory-cache.js";

/** The in-process cache's size, read when scraped; `cacheStats` absent or answering undefined leaves them empty. */
export function registerCacheGauges(registers: Registry[], sources: { cacheStats?: (() => CacheStats | undefined) | undefined }): void {
  new Gauge({
    name: "tidings_cache_bytes",
    help: "About how many bytes of values this instance's in-process cache holds (bounded by TIDINGS_CACHE_MAX_MB)",
    registers,
    collect() {
      const stats = sources.cacheStats?.();
      if (stats === undefined) this.reset();
      else this.set(stats.bytes);
    },
  });
  new Gauge({
    name: "tidings_cache_entries",
    help: "Entries in this instance's in-process cache",
    registers,
    collect() {
      const stats = sources.cacheStats?.();
      if (stats === undefined) this.reset();
      else this.set(stats.entries);
    },
  });
}
