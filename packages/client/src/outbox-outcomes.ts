import type { OutboxEntry } from "./outbox-entry.js";
import type { FeedbackResult, ProposeResult } from "./results.js";

/** What subscribers of an {@link Outbox} hear. `changed` follows every change of `pending`. */
export type OutboxEvent =
  | { type: "queued"; entry: OutboxEntry }
  | { type: "sent"; entry: OutboxEntry; result: FeedbackResult | ProposeResult }
  | { type: "failed"; entry: OutboxEntry; error: unknown }
  | { type: "changed"; pending: readonly OutboxEntry[] };

/** The outcome of a submit-or-queue call: sent now, or kept to be sent later. */
export type OutboxSubmission<T> = { status: "sent"; result: T } | { status: "queued"; entry: OutboxEntry };

/** Thrown by {@link Outbox.enqueue} when the queue already holds `maxEntries` entries. */
export class OutboxFullError extends RangeError {
  constructor(readonly maxEntries: number) {
    super(`The outbox is full (${maxEntries} entries)`);
    this.name = "OutboxFullError";
  }
}
