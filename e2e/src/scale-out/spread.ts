/** One request the spreading fetch sent: which instance served it, and what it was. */
export interface SpreadRequest {
  instance: number;
  method: string;
  path: string;
}

/**
 * A load balancer in the client: each request goes to the next of `origins` in turn, whatever
 * origin it was addressed to, with `X-Forwarded-For: clientIp` (the instances trust loopback
 * proxies, so rate limits count that address). Hand `fetch` to the SDK's `FeedbackClient`.
 *
 * @example
 * ```ts
 * const spread = new RoundRobin([a.url, b.url, c.url], "198.51.100.7");
 * const client = new FeedbackClient({ baseUrl: "http://tidings.invalid", appKey, fetch: spread.fetch });
 * spread.startAt(0); // the next request goes to the first instance
 * ```
 */
export class RoundRobin {
  readonly log: SpreadRequest[] = [];
  #next = 0;

  constructor(
    readonly origins: readonly string[],
    readonly clientIp: string,
  ) {}

  /** Sends the next request to instance `index` (0-based), then on round the circle again. */
  startAt(index: number): void {
    this.#next = index;
  }

  /** Takes an instance out of the rotation (it was killed). */
  readonly #skipped = new Set<number>();
  skip(index: number): void {
    this.#skipped.add(index);
  }

  readonly fetch = (input: string, init: RequestInit = {}): Promise<Response> => {
    let instance = this.#next % this.origins.length;
    while (this.#skipped.has(instance)) instance = (instance + 1) % this.origins.length;
    this.#next = instance + 1;
    const url = new URL(input, "http://tidings.invalid");
    const headers = new Headers(init.headers);
    headers.set("x-forwarded-for", this.clientIp);
    this.log.push({ instance, method: (init.method ?? "GET").toUpperCase(), path: url.pathname });
    return fetch(`${this.origins[instance]}${url.pathname}${url.search}`, { ...init, headers });
  };
}
