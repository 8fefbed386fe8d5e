/**
 * Key-value storage the SDK persists its token and seen-changelog keys in: AsyncStorage,
 * SecureStore (values stay under ~2 KB), MMKV, `localStorage`… Sync or async.
 */
export interface StorageAdapter {
  /** The stored value, or null/undefined when there is none. */
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  /** Stores a value under a key. */
  setItem(key: string, value: string): void | Promise<void>;
  /** Deletes a key; optional. */
  removeItem?(key: string): void | Promise<void>;
}

/** Storage that lives as long as the process: used when no adapter is given. */
export function memoryStorage(): StorageAdapter {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

/** Where development warnings go; `console.warn` by default. */
export type Warn = (message: string) => void;

/** True unless the bundler or runtime says this is a production build. */
function isDevelopment(): boolean {
  const g = globalThis as { __DEV__?: unknown; process?: { env?: Record<string, string | undefined> } };
  if (typeof g.__DEV__ === "boolean") return g.__DEV__;
  return g.process?.env?.NODE_ENV !== "production";
}

/** Messages already shown: a client created again (a remount, a fast refresh) does not repeat them. */
const shown = new Set<string>();

/** `console.warn` in development builds (`__DEV__` in React Native, else `NODE_ENV`), each message once per run. */
export const defaultWarn: Warn = (message) => {
  if (!isDevelopment() || shown.has(message)) return;
  shown.add(message);
  globalThis.console?.warn(`[tidings] ${message}`);
};
