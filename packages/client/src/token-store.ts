import { defaultWarn, memoryStorage, type StorageAdapter, type Warn } from "./storage.js";
import { uuidV4 } from "./uuid.js";

/** Storage key of the end-user token. */
export const USER_TOKEN_KEY = "service_user_token_v1";

/** Options of {@link UserTokenStore}. */
export interface UserTokenStoreOptions {
  /** Persistent storage. Without one the token lives in memory and a new one is minted on every start. @default undefined */
  storage?: StorageAdapter | undefined;
  /** @default "service_user_token_v1" */
  key?: string;
  /** Development warnings. @default console.warn outside production */
  warn?: Warn;
  /** Mints anonymous tokens. @default a CSPRNG UUID v4 */
  generate?: () => string;
}

type Listener = (token: string) => void;

/**
 * The end user's client token: an anonymous UUID v4 persisted under `service_user_token_v1`,
 * replaced by the host's user id after login (`setToken`) and by a fresh anonymous one after
 * logout (`resetToken`). A token set explicitly always wins over a storage read still in flight.
 *
 * @example
 * ```ts
 * const tokens = new UserTokenStore({ storage: AsyncStorage });
 * const token = await tokens.getToken();
 * ```
 */
export class UserTokenStore {
  readonly isPersistent: boolean;
  private readonly storage: StorageAdapter;
  private readonly key: string;
  private readonly generate: () => string;
  private readonly warn: Warn;
  private readonly listeners = new Set<Listener>();
  private current: string | null = null;
  /** Bumped by every explicit change, so a late storage read can tell it lost. */
  private generation = 0;
  private readonly loaded: Promise<void>;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(options: UserTokenStoreOptions = {}) {
    this.isPersistent = options.storage !== undefined;
    this.warn = options.warn ?? defaultWarn;
    if (options.storage === undefined) {
      this.warn(
        "No storage adapter given: the user token and changelog seen-tracking live in memory and will not survive a restart, " +
          "so every launch is a new anonymous user and the changelog overlay reappears on every launch. " +
          "Pass `storage` (AsyncStorage, MMKV, localStorage…) to the FeedbackClient.",
      );
    }
    this.storage = options.storage ?? memoryStorage();
    this.key = options.key ?? USER_TOKEN_KEY;
    this.generate = options.generate ?? (() => uuidV4());
    this.loaded = this.load();
  }

  /** The token once known, else null (use {@link getToken} to wait for it). */
  get token(): string | null {
    return this.current;
  }

  /**
   * Resolves with the token once it is read from storage (or minted). Rejects, at this call, with
   * the error naming react-native-get-random-values when a token must be minted and the runtime
   * has no secure random source; the next call tries again.
   */
  async getToken(): Promise<string> {
    await this.loaded;
    return this.current ?? (await this.mint());
  }

  /** After login: use the host's own user id from now on. */
  async setToken(token: string): Promise<void> {
    const value = token.trim();
    if (value === "") throw new TypeError("setToken needs a non-empty token");
    this.replace(value);
    await this.persist((s) => s.setItem(this.key, value));
  }

  /** After logout: forget the user and start over with a fresh anonymous token. */
  async resetToken(): Promise<string> {
    const value = this.generate();
    this.replace(value);
    await this.persist((s) => s.setItem(this.key, value));
    return value;
  }

  /** Called with the new token on every change; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private replace(value: string): void {
    this.generation += 1;
    if (value === this.current) return;
    this.current = value;
    for (const listener of [...this.listeners]) listener(value);
  }

  /** Writes run one after another, so storage ends with the last value set. */
  private persist(write: (storage: StorageAdapter) => void | Promise<void>): Promise<void> {
    const next = this.writes.then(() => write(this.storage));
    this.writes = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<void> {
    const generation = this.generation;
    let stored: string | null | undefined;
    try {
      stored = await this.storage.getItem(this.key);
    } catch {
      stored = undefined;
    }
    if (generation !== this.generation) return;
    if (typeof stored === "string" && stored.trim() !== "" && stored.length <= 256) {
      this.replace(stored.trim());
      return;
    }
    try {
      await this.mint();
    } catch (error) {
      // Started by the constructor, so nobody awaits this load: a rejection here would be
      // unhandled. The token stays unknown and getToken() mints again, failing at its caller.
      this.warn(`No user token: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** A fresh anonymous token, announced and persisted (a failed write keeps it in memory). */
  private async mint(): Promise<string> {
    const value = this.generate();
    this.replace(value);
    await this.persist((s) => s.setItem(this.key, value)).catch(() => undefined);
    return value;
  }
}
