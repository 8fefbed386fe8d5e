import { memoryStorage, type StorageAdapter } from "./storage.js";

/** Storage key of the changelog releases the user has seen. */
export const SEEN_CHANGELOGS_KEY = "service_seen_changelogs_v1";

/** Seen keys kept at most; older ones are forgotten. */
const MAX_SEEN = 50;

/**
 * Which changelog releases the user has seen (`versionLabel || id` of the newest entry), stored
 * as a JSON array under `service_seen_changelogs_v1`. Reads tolerate the legacy comma list.
 *
 * @example
 * ```ts
 * const seen = new SeenChangelogStore(AsyncStorage);
 * if (!(await seen.hasSeen("2.4.0"))) showOverlay();
 * ```
 */
export class SeenChangelogStore {
  private readonly storage: StorageAdapter;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(storage: StorageAdapter = memoryStorage(), private readonly key: string = SEEN_CHANGELOGS_KEY) {
    this.storage = storage;
  }

  /** Whether the release (version label or entry id) was already shown. */
  async hasSeen(releaseKey: string): Promise<boolean> {
    return (await this.read()).includes(releaseKey);
  }

  /** Records the release as shown; the last 50 are kept. */
  async markSeen(releaseKey: string): Promise<void> {
    await this.serial(async () => {
      const keys = (await this.read()).filter((k) => k !== releaseKey);
      keys.push(releaseKey);
      await this.storage.setItem(this.key, JSON.stringify(keys.slice(-MAX_SEEN)));
    });
  }

  /** Forgets every seen release, so the overlay shows again. */
  async clear(): Promise<void> {
    await this.serial(async () => {
      if (this.storage.removeItem) await this.storage.removeItem(this.key);
      else await this.storage.setItem(this.key, "[]");
    });
  }

  private serial(task: () => Promise<void>): Promise<void> {
    const next = this.queue.then(task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<string[]> {
    let raw: string | null | undefined;
    try {
      raw = await this.storage.getItem(this.key);
    } catch {
      return [];
    }
    if (typeof raw !== "string" || raw.trim() === "") return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) return parsed.filter((k): k is string => typeof k === "string");
    } catch {
      // Legacy value: a comma-separated list.
    }
    return raw.split(",").map((k) => k.trim()).filter((k) => k !== "");
  }
}
