import type { LogEvent } from "kysely";

/** Subscribers to each query's outcome and duration (Kysely's log events). */
export interface QueryTimings {
  /** Calls `listener` after every query from now on; answers the function that stops it. */
  listen(listener: (event: LogEvent) => void): () => void;
}

/** Kysely's `log` option feeding a set of listeners, so they can come and go after the database opened. */
export function queryTimings(): { timings: QueryTimings; log: (event: LogEvent) => void } {
  const listeners = new Set<(event: LogEvent) => void>();
  return {
    timings: {
      listen: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    log: (event) => {
      for (const listener of listeners) listener(event);
    },
  };
}
