import autocannon from "autocannon";

/** Connections each autocannon run opens. */
export const CONNECTIONS = 10;

/**
 * One bounded autocannon run; rejects on any error or non-2xx so numbers never hide failures.
 * The load comes from a worker thread, so the server under test keeps the main thread's core
 * to itself instead of sharing its event loop with the load generator.
 */
export async function load(url: string, duration: number, options: Partial<autocannon.Options> = {}): Promise<autocannon.Result> {
  let timer: NodeJS.Timeout | undefined;
  // autocannon stops itself after `duration`; the race only guards against a hung run.
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`autocannon did not finish within ${duration + 15}s: ${url}`)), (duration + 15) * 1000);
  });
  try {
    const result = await Promise.race([autocannon({ url, connections: CONNECTIONS, duration, workers: 1, ...options }), guard]);
    if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
      throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx responses`);
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}

