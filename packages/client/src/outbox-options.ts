import type { FeedbackClient } from "./client.js";
import type { StorageAdapter } from "./storage.js";
import type { Timers } from "./timers.js";

/** Storage key prefix of the outbox; the app key follows it. */
export const OUTBOX_KEY = "service_outbox_v1";
/** Entries an outbox keeps at most, unless `maxEntries` says otherwise. */
export const DEFAULT_OUTBOX_MAX_ENTRIES = 50;

/** What the outbox needs from the client. */
export type OutboxClient = Pick<FeedbackClient, "appKey" | "timers" | "getUserToken" | "submitFeedback" | "submitFeatureRequest" | "uploadAttachment">;

/** Options of {@link Outbox}, merged once at construction. */
export interface OutboxOptions {
  /** Where entries survive restarts: AsyncStorage, MMKV, `localStorage`… (not SecureStore: values stay under ~2 KB). */
  storage: StorageAdapter;
  /** @default `service_outbox_v1:<appKey>` */
  key?: string | undefined;
  /** Entries kept at most; past it nothing more is queued. @default 50 */
  maxEntries?: number | undefined;
  /** Wait before the first retry; it doubles with every attempt. @default 2000 */
  initialRetryDelayMs?: number | undefined;
  /** Longest wait between attempts (a `Retry-After` may ask for more). @default 300000 */
  maxRetryDelayMs?: number | undefined;
  /** Clock and timers. @default the client's */
  timers?: Timers | undefined;
  /** Jitter source, in [0, 1). @default Math.random */
  random?: (() => number) | undefined;
  /** Makes entry ids and idempotency keys. @default a CSPRNG UUID v4 */
  generateId?: (() => string) | undefined;
}
