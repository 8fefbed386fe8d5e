import { normalizePickedAttachment } from "./attachments.js";
import type { FeedbackDraft } from "./feedback.js";
import type { OutboxEntry, OutboxKind, QueuedFeatureRequest, QueuedFeedback } from "./outbox-entry.js";

/**
 * The entry that queues a submission made at `now` for `userToken`: the draft without its
 * single-use `verificationToken`, feedback with uploaded attachment descriptors only (a TypeError
 * otherwise) and its `submittedAt` pinned, under a fresh id and idempotency key from `generateId`.
 */
export function newOutboxEntry(
  kind: OutboxKind,
  payload: QueuedFeedback | QueuedFeatureRequest | FeedbackDraft,
  userToken: string,
  now: number,
  generateId: () => string,
): OutboxEntry {
  const { verificationToken: _single, ...kept } = payload as FeedbackDraft;
  let stored: Record<string, unknown> = kept;
  if (kind === "feedback") {
    const attachments = (kept.attachments ?? []).map((picked) => {
      const normalized = normalizePickedAttachment(picked);
      if (normalized.type !== "descriptor") throw new TypeError("Queued feedback takes uploaded attachment descriptors only: upload files first");
      return normalized.descriptor;
    });
    // Pinned, so every attempt sends the same body under the key.
    stored = { ...kept, attachments, submittedAt: kept.submittedAt ?? new Date(now).toISOString() };
  }
  const id = generateId();
  const entry = { id, kind, payload: JSON.parse(JSON.stringify(stored)) as unknown, idempotencyKey: generateId(), userToken, createdAt: now };
  return { ...entry, attempts: 0, nextAttemptAt: now } as OutboxEntry;
}
