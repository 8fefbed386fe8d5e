import type { AttachmentDescriptor } from "./attachments.js";
import type { FeatureRequestDraft } from "./feature-requests.js";
import type { FeedbackDraft } from "./feedback.js";
import { FeedbackException, IdempotencyKeyInUseException, isAbortError, NetworkException, RequestTimeoutException } from "./errors.js";

/** A queued feedback submission: its attachments are uploaded descriptors, never bytes. */
export type QueuedFeedback = Omit<FeedbackDraft, "attachments" | "verificationToken"> & { attachments?: AttachmentDescriptor[] | undefined };

/** A queued feature-request proposal. */
export type QueuedFeatureRequest = Omit<FeatureRequestDraft, "verificationToken">;

/** What an entry's last attempt ran into, kept small enough to store. */
export interface OutboxAttemptError {
  message: string;
  status?: number;
  code?: string;
}

interface EntryFields {
  id: string;
  /** Sent as `Idempotency-Key` on every attempt, so the server writes the submission once. */
  idempotencyKey: string;
  /** The user the submission was made for (a later login or logout does not change it). */
  userToken: string;
  /** Epoch ms when it was submitted. */
  createdAt: number;
  /** Attempts made so far, the first direct one included. */
  attempts: number;
  /** Epoch ms of the next scheduled attempt. */
  nextAttemptAt: number;
  lastError?: OutboxAttemptError;
}

/** One submission waiting in the {@link Outbox}, as stored. */
export type OutboxEntry = (EntryFields & { kind: "feedback"; payload: QueuedFeedback }) | (EntryFields & { kind: "featureRequest"; payload: QueuedFeatureRequest });

/** What the outbox queues: feedback or a feature-request proposal. */
export type OutboxKind = OutboxEntry["kind"];

const isText = (value: unknown): value is string => typeof value === "string" && value !== "";
const isTime = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** Keeps the well-formed entries of a stored value; anything unreadable counts as an empty queue. */
export function parseOutboxEntries(raw: string | null | undefined): OutboxEntry[] {
  if (typeof raw !== "string" || raw.trim() === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((value: unknown): value is OutboxEntry => {
    if (typeof value !== "object" || value === null) return false;
    const e = value as Record<string, unknown>;
    const payload = e.payload as Record<string, unknown> | null | undefined;
    return (
      (e.kind === "feedback" || e.kind === "featureRequest") &&
      [e.id, e.idempotencyKey, e.userToken].every(isText) &&
      [e.createdAt, e.attempts, e.nextAttemptAt].every(isTime) &&
      typeof payload === "object" &&
      payload !== null &&
      typeof payload.title === "string"
    );
  });
}

/** No answer, or only a gateway's: offline, the server down or unreachable, or out of time. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof NetworkException || error instanceof RequestTimeoutException) return true;
  return error instanceof FeedbackException && (error.status === 502 || error.status === 503 || error.status === 504);
}

/**
 * Whether a failed attempt is tried again later with the same key: no answer, 5xx, 408, 429, and
 * the 409s that mean "not now" (`idempotency_key_in_use`, `write_conflict`). Failures outside the
 * SDK's errors (a verification provider that threw) are retried too. Any other 4xx is final, and
 * so is a 2xx the SDK could not read (the submission arrived) or a draft it could not send.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof FeedbackException)) return true;
  if (isAbortError(error) || isUnreachable(error)) return true;
  const status = error.status;
  if (status === undefined || status < 400) return false;
  if (status === 409) return error instanceof IdempotencyKeyInUseException || error.code === "write_conflict";
  return status >= 500 || status === 408 || status === 429;
}

/** The part of an error an entry keeps. */
export function describeAttemptError(error: unknown): OutboxAttemptError {
  const described: OutboxAttemptError = { message: error instanceof Error ? error.message : String(error) };
  if (error instanceof FeedbackException) {
    if (error.status !== undefined) described.status = error.status;
    if (error.code !== undefined) described.code = error.code;
  }
  return described;
}
