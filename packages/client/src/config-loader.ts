import { isAbortError } from "./errors.js";
import { systemTimers, type Timers } from "./timers.js";
import type { PublicAppConfig, ThemeName } from "./types.js";

const THEMES: readonly string[] = ["system", "light", "dark", "midnight", "ocean", "forest", "sunset", "candy"];

/** What the loader knows about the app config. */
export interface ConfigState {
  status: "idle" | "loading" | "ready" | "error";
  /** The loaded config; null before the first success and after a failure (fail closed). */
  config: PublicAppConfig | null;
  error: unknown;
  /** The config's theme, `system` when unknown, absent or not loaded. */
  theme: ThemeName;
}

/** Options of {@link ConfigLoader}. */
export interface ConfigLoaderOptions {
  /** Delay before the one retry of the initial load, in ms. @default 2000 */
  retryDelayMs?: number | undefined;
  /** @default the real clock and timers */
  timers?: Timers | undefined;
}

/** The theme of a config, `system` for unknown names. */
export function themeOf(config: PublicAppConfig | null): ThemeName {
  const theme = config?.sdk?.theme;
  return typeof theme === "string" && THEMES.includes(theme) ? (theme as ThemeName) : "system";
}

/**
 * Rule 5: loads the app config at start, retries once after 2 s, then exposes the error (theme
 * `system`); `refresh()` fetches again and clears the error on success. Any failure, a non-200
 * included, leaves `config` null.
 *
 * @example
 * ```ts
 * const loader = new ConfigLoader((signal) => client.getConfig({ signal }));
 * loader.subscribe(() => render(loader.state));
 * void loader.start();
 * ```
 */
export class ConfigLoader {
  private current: ConfigState = { status: "idle", config: null, error: undefined, theme: "system" };
  private readonly listeners = new Set<(state: ConfigState) => void>();
  private readonly timers: Timers;
  private readonly retryDelayMs: number;
  private controller: AbortController | undefined;
  private retryTimer: unknown;
  /** Ends a pending retry wait early (dispose, or a newer fetch). */
  private wake: (() => void) | undefined;
  private generation = 0;

  constructor(
    private readonly load: (signal: AbortSignal) => Promise<PublicAppConfig>,
    options: ConfigLoaderOptions = {},
  ) {
    this.timers = options.timers ?? systemTimers;
    this.retryDelayMs = options.retryDelayMs ?? 2000;
  }

  get state(): ConfigState {
    return this.current;
  }

  /** Calls `listener` on every state change; returns the function that unsubscribes. */
  subscribe(listener: (state: ConfigState) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The initial load, with its one retry. */
  start(): Promise<void> {
    return this.fetch(1);
  }

  /** A manual re-fetch (no retry); clears the error on success. */
  refresh(): Promise<void> {
    return this.fetch(0);
  }

  /** Aborts what is in flight and cancels a pending retry. */
  dispose(): void {
    this.generation += 1;
    this.stopPending();
    this.listeners.clear();
  }

  private async fetch(retries: number): Promise<void> {
    const generation = ++this.generation;
    this.stopPending();
    this.set({ ...this.current, status: "loading" });
    for (let attempt = 0; ; attempt += 1) {
      const controller = new AbortController();
      this.controller = controller;
      try {
        const config = await this.load(controller.signal);
        if (generation !== this.generation) return;
        this.set({ status: "ready", config, error: undefined, theme: themeOf(config) });
        return;
      } catch (error) {
        if (generation !== this.generation || isAbortError(error)) return;
        if (attempt >= retries) {
          this.set({ status: "error", config: null, error, theme: "system" });
          return;
        }
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.retryTimer = this.timers.setTimeout(resolve, this.retryDelayMs);
      });
      this.retryTimer = undefined;
      this.wake = undefined;
      if (generation !== this.generation) return;
    }
  }

  private stopPending(): void {
    this.controller?.abort();
    if (this.retryTimer !== undefined) this.timers.clearTimeout(this.retryTimer);
    this.wake?.();
  }

  private set(state: ConfigState): void {
    this.current = state;
    for (const listener of [...this.listeners]) listener(state);
  }
}
