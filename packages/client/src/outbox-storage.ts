import { parseOutboxEntries, type OutboxEntry } from "./outbox-entry.js";
import type { StorageAdapter } from "./storage.js";

/** An outbox's queue as stored under one key, with the entries last read or written kept in memory. */
export class OutboxStorage {
  /** The entries as last read or written, oldest first (empty until the first update). */
  entries: readonly OutboxEntry[] = [];
  private updates: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly storage: StorageAdapter,
    private readonly key: string,
    /** Called with the entries whenever they differ from the ones kept. */
    private readonly onChange: (entries: readonly OutboxEntry[]) => void,
  ) {}

  /**
   * Reads storage, applies `change` (undefined: no change) and writes the result, one update at a
   * time. Reading first keeps entries another tab added; a failed read falls back to memory.
   */
  update(change: (entries: readonly OutboxEntry[]) => readonly OutboxEntry[] | undefined): Promise<readonly OutboxEntry[]> {
    const next = this.updates.then(async () => {
      let current: readonly OutboxEntry[];
      try {
        current = parseOutboxEntries(await this.storage.getItem(this.key));
      } catch {
        current = this.entries;
      }
      const changed = change(current);
      if (changed !== undefined) {
        if (changed.length === 0 && this.storage.removeItem) await this.storage.removeItem(this.key);
        else await this.storage.setItem(this.key, JSON.stringify(changed));
      }
      const entries = changed ?? current;
      if (JSON.stringify(entries) !== JSON.stringify(this.entries)) {
        this.entries = entries;
        this.onChange(entries);
      }
      return entries;
    });
    this.updates = next.catch(() => undefined);
    return next;
  }
}
