import { RateLimitedException } from "./errors.js";
import { systemTimers, type Timers } from "./timers.js";

/** Tuning of the search pacing (spec: `searchRateLimiterOptions`). */
export interface SearchRateLimiterOptions {
  /** Least time between two query-bearing fetches, in ms. @default 2500 */
  minSpacingMs?: number | undefined;
  /** Pause of query searches after a 429 without `Retry-After`, in ms. @default 60000 */
  cooldownMs?: number | undefined;
}

export interface SearchPacerOptions extends SearchRateLimiterOptions {
  /** Quiet time after the last keystroke before anything is fetched, in ms. @default 250 */
  debounceMs?: number | undefined;
  /** Upper bound on a server's `Retry-After`, in ms. @default 120000 */
  maxCooldownMs?: number | undefined;
  /** @default the real clock and timers */
  timers?: Timers | undefined;
}

/** What a fetch is for: the trimmed search text ("" = plain listing) and the filters. */
export interface SearchKey {
  query: string;
  versionId: string | undefined;
  /** A board's slug (undefined: every board). */
  board?: string | undefined;
  /** Tags' slugs, every one required (absent or empty: no tag filter). */
  tags?: readonly string[] | undefined;
}

/** The board and tag filters of a {@link SearchKey}. */
export type SearchFilters = Pick<SearchKey, "board" | "tags">;

const keyOf = (key: SearchKey) => [key.query, key.versionId ?? "", key.board ?? "", ...[...(key.tags ?? [])].sort()].join("\u0000");

/**
 * Paces feature-request searches so a typing user stays inside the server's 30-per-minute search
 * budget: 250 ms debounce, 2.5 s between query-bearing fetches, the same trimmed query and version
 * never fetched twice in a row, and after a 429 a cooldown (60 s, or the server's `Retry-After`)
 * during which query searches wait; the newest wanted search runs when it ends. Plain listings
 * are never paced.
 *
 * @example
 * ```ts
 * const pacer = new SearchPacer((key) => load(key), { minSpacingMs: 2500 });
 * input.oninput = () => pacer.update(input.value, versionId);
 * ```
 */
export class SearchPacer {
  private readonly timers: Timers;
  private readonly minSpacingMs: number;
  private readonly cooldownMs: number;
  private readonly debounceMs: number;
  private readonly maxCooldownMs: number;
  private readonly listeners = new Set<() => void>();
  private wanted: SearchKey | undefined;
  /** Key of the last fetch started and not failed. */
  private fetchedKey: string | undefined;
  private lastSearchAt = Number.NEGATIVE_INFINITY;
  private cooldownUntil = Number.NEGATIVE_INFINITY;
  private debounceTimer: unknown;
  private waitTimer: unknown;
  private disposed = false;

  constructor(
    private readonly run: (key: SearchKey) => Promise<unknown>,
    options: SearchPacerOptions = {},
  ) {
    this.timers = options.timers ?? systemTimers;
    this.minSpacingMs = options.minSpacingMs ?? 2500;
    this.cooldownMs = options.cooldownMs ?? 60_000;
    this.debounceMs = options.debounceMs ?? 250;
    this.maxCooldownMs = options.maxCooldownMs ?? 120_000;
  }

  /** True during a cooldown after a 429: query searches wait, loaded results stay. */
  get rateLimited(): boolean {
    return this.timers.now() < this.cooldownUntil;
  }

  /** Called when `rateLimited` changes. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The user changed the search text or a filter (version, board, tags). */
  update(query: string, versionId?: string | undefined, filters: SearchFilters = {}): void {
    const board = filters.board === "" ? undefined : filters.board;
    this.wanted = { query: query.trim(), versionId: versionId === "" ? undefined : versionId };
    if (board !== undefined) this.wanted.board = board;
    if (filters.tags !== undefined && filters.tags.length > 0) this.wanted.tags = [...filters.tags];
    this.clear("debounceTimer");
    this.debounceTimer = this.timers.setTimeout(() => {
      this.debounceTimer = undefined;
      this.evaluate();
    }, this.debounceMs);
  }

  /** Fetches the wanted key again even if it was fetched before (pull to refresh), still paced. */
  refresh(): void {
    this.fetchedKey = undefined;
    this.clear("debounceTimer");
    this.evaluate();
  }

  /** Forgets a failed fetch of `key`, so the same input may be retried. */
  forget(key: SearchKey): void {
    if (this.fetchedKey === keyOf(key)) this.fetchedKey = undefined;
  }

  /**
   * Starts the cooldown for a 429 that arrived outside the pacer (e.g. loading another page of a
   * search): 60 s, or the server's `Retry-After`.
   */
  noteRateLimited(error: RateLimitedException): void {
    if (this.disposed) return;
    const pause = Math.min(this.maxCooldownMs, error.retryAfterMs ?? this.cooldownMs);
    this.cooldownUntil = this.timers.now() + pause;
    this.notify();
    this.waitUntil(this.cooldownUntil);
  }

  /** Stops every timer; later results are ignored. */
  dispose(): void {
    this.disposed = true;
    this.clear("debounceTimer");
    this.clear("waitTimer");
    this.listeners.clear();
  }

  private clear(timer: "debounceTimer" | "waitTimer"): void {
    if (this[timer] !== undefined) this.timers.clearTimeout(this[timer]);
    this[timer] = undefined;
  }

  private waitUntil(at: number): void {
    this.clear("waitTimer");
    this.waitTimer = this.timers.setTimeout(() => {
      this.waitTimer = undefined;
      if (at === this.cooldownUntil) this.notify();
      this.evaluate();
    }, Math.max(0, at - this.timers.now()));
  }

  private evaluate(): void {
    const wanted = this.wanted;
    if (this.disposed || wanted === undefined || keyOf(wanted) === this.fetchedKey) return;
    const now = this.timers.now();
    if (wanted.query !== "") {
      if (now < this.cooldownUntil) return this.waitUntil(this.cooldownUntil);
      const spacedAt = this.lastSearchAt + this.minSpacingMs;
      if (now < spacedAt) return this.waitUntil(spacedAt);
      this.lastSearchAt = now;
    }
    this.clear("waitTimer");
    this.start(wanted);
  }

  private start(key: SearchKey): void {
    this.fetchedKey = keyOf(key);
    this.run(key).catch((error: unknown) => {
      if (this.disposed) return;
      this.forget(key);
      if (error instanceof RateLimitedException) this.noteRateLimited(error);
    });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
