import { normalizePickedAttachment, type AttachmentDescriptor } from "./attachments.js";
import type { UserCallOptions } from "./call-options.js";
import type { FeedbackClient } from "./client.js";
import type { FeatureRequestDraft } from "./feature-requests.js";
import type { FeedbackDraft } from "./feedback.js";
import { RateLimitedException } from "./errors.js";
import {
  describeAttemptError,
  isRetryable,
  isUnreachable,
  parseOutboxEntries,
  type OutboxEntry,
  type OutboxKind,
  type QueuedFeatureRequest,
  type QueuedFeedback,
} from "./outbox-entry.js";
import type { StorageAdapter } from "./storage.js";
import type { Timers } from "./timers.js";
import type { FeedbackResult, ProposeResult } from "./types.js";
import { uuidV4 } from "./uuid.js";

// `@tidings/client/outbox` is this module: the entry's types come along with the class.
export type { OutboxAttemptError, OutboxEntry, OutboxKind, QueuedFeatureRequest, QueuedFeedback } from "./outbox-entry.js";

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

/** How one attempt ended for the pass that made it. */
type Outcome = "done" | "later";

/**
 * Feedback and proposals made while the device is offline (or the server out of reach) kept in
 * storage and sent again later under the same `Idempotency-Key`, so each arrives once. Entries go
 * out one at a time, oldest first; one that cannot go yet (no connection, 5xx, 429, a key still
 * in use) holds the queue back with exponential backoff and jitter, one the server refuses (any
 * other 4xx) is dropped and reported as `failed`. DOM-free; one outbox per app and storage.
 *
 * @example
 * ```ts
 * const outbox = new Outbox(client, { storage: AsyncStorage });
 * outbox.start();
 * AppState.addEventListener("change", (s) => s === "active" && void outbox.flush());
 * const outcome = await outbox.submitFeedbackOrQueue({ title: "Crash", details: "on start" });
 * if (outcome.status === "queued") showNotice("Saved; it will be sent when the connection is back.");
 * ```
 */
export class Outbox {
  readonly key: string;
  readonly maxEntries: number;
  private readonly storage: StorageAdapter;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly generateId: () => string;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly listeners = new Set<(event: OutboxEvent) => void>();
  private entries: readonly OutboxEntry[] = [];
  private readonly loaded: Promise<unknown>;
  private updates: Promise<unknown> = Promise.resolve();
  private started = false;
  private timer: unknown;
  /** The pass in progress: never two at once, so no entry is sent twice concurrently. */
  private running: Promise<void> | null = null;
  /** Another pass asked for while one runs: `all` ignores backoff. */
  private again: "due" | "all" | null = null;
  /** After a pass failed on storage, scheduled passes wait until then. */
  private holdUntil = 0;

  constructor(
    private readonly client: OutboxClient,
    options: OutboxOptions,
  ) {
    this.storage = options.storage;
    this.key = options.key ?? `${OUTBOX_KEY}:${client.appKey}`;
    this.maxEntries = options.maxEntries ?? DEFAULT_OUTBOX_MAX_ENTRIES;
    this.initialDelayMs = options.initialRetryDelayMs ?? 2000;
    this.maxDelayMs = options.maxRetryDelayMs ?? 300_000;
    this.timers = options.timers ?? client.timers;
    this.random = options.random ?? Math.random;
    this.generateId = options.generateId ?? (() => uuidV4());
    this.loaded = this.load().catch(() => undefined);
  }

  /** The entries waiting, oldest first (empty until storage was read: see {@link load}). */
  get pending(): readonly OutboxEntry[] {
    return this.entries;
  }

  /** Calls `listener` with every event; returns the unsubscribe function. */
  subscribe(listener: (event: OutboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Reads the queue from storage again (it also changes when another tab sends) and resolves with it. */
  async load(): Promise<readonly OutboxEntry[]> {
    return this.update(() => undefined);
  }

  /** Sends entries as they fall due, until {@link stop}. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.loaded.then(() => this.schedule());
  }

  /** Stops sending queued entries as they fall due; they stay stored until the next `start()`. */
  stop(): void {
    this.started = false;
    this.clearTimer();
  }

  /**
   * Sends every entry now, oldest first, ignoring backoff: call it when the connection returns or
   * the app comes to the foreground. Joins a flush in progress rather than start a second one.
   */
  flush(): Promise<void> {
    return this.run("all");
  }

  /**
   * Queues a submission for later. Feedback attachments must be uploaded descriptors. A draft's
   * `verificationToken` is not kept (tokens are single-use): attempts ask the client's provider or
   * its built-in altcha. Throws {@link OutboxFullError} past `maxEntries`.
   */
  async enqueue(kind: "feedback", payload: QueuedFeedback, options?: { userToken?: string | undefined }): Promise<OutboxEntry>;
  async enqueue(kind: "featureRequest", payload: QueuedFeatureRequest, options?: { userToken?: string | undefined }): Promise<OutboxEntry>;
  async enqueue(kind: OutboxKind, payload: QueuedFeedback | QueuedFeatureRequest, options: { userToken?: string | undefined } = {}): Promise<OutboxEntry> {
    const token = await this.client.getUserToken(options.userToken);
    return this.store(this.newEntry(kind, payload, token));
  }

  /**
   * Submits feedback now; when no answer comes (offline, server down, timeout, a gateway's 502–504)
   * keeps it in the outbox instead of throwing, under the key the attempt used. Pending uploads run
   * first and must succeed (bytes are never queued). Other failures throw, as with the client;
   * so does the connection error when the outbox is full.
   */
  async submitFeedbackOrQueue(draft: FeedbackDraft, options: UserCallOptions = {}): Promise<OutboxSubmission<FeedbackResult>> {
    const token = await this.client.getUserToken(options.userToken);
    const attachments: AttachmentDescriptor[] = [];
    for (const picked of draft.attachments ?? []) {
      const normalized = normalizePickedAttachment(picked);
      attachments.push(
        normalized.type === "descriptor"
          ? normalized.descriptor
          : await this.client.uploadAttachment({ ...normalized.request, signal: normalized.request.signal ?? options.signal }, { userToken: token }),
      );
    }
    const entry = this.newEntry("feedback", { ...draft, attachments }, token);
    return this.sendOrQueue<FeedbackResult>(entry, draft.verificationToken, options);
  }

  /** {@link submitFeedbackOrQueue} for a feature-request proposal. */
  async submitFeatureRequestOrQueue(draft: FeatureRequestDraft, options: UserCallOptions = {}): Promise<OutboxSubmission<ProposeResult>> {
    const token = await this.client.getUserToken(options.userToken);
    return this.sendOrQueue<ProposeResult>(this.newEntry("featureRequest", draft, token), draft.verificationToken, options);
  }

  /** Drops an entry without sending it (a "discard" in the host's UI); false when it was not queued. */
  async remove(id: string): Promise<boolean> {
    let found = false;
    await this.update((entries) => {
      found = entries.some((e) => e.id === id);
      return found ? entries.filter((e) => e.id !== id) : undefined;
    });
    this.schedule();
    return found;
  }

  private newEntry(kind: OutboxKind, payload: QueuedFeedback | QueuedFeatureRequest | FeedbackDraft, userToken: string): OutboxEntry {
    const now = this.timers.now();
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
    const id = this.generateId();
    const entry = { id, kind, payload: JSON.parse(JSON.stringify(stored)) as unknown, idempotencyKey: this.generateId(), userToken, createdAt: now };
    return { ...entry, attempts: 0, nextAttemptAt: now } as OutboxEntry;
  }

  private async sendOrQueue<T>(entry: OutboxEntry, verificationToken: string | undefined, options: UserCallOptions): Promise<OutboxSubmission<T>> {
    let result: FeedbackResult | ProposeResult;
    try {
      result = await this.deliver(entry, { signal: options.signal, timeoutMs: options.timeoutMs, verificationToken });
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      const queued = { ...entry, attempts: 1, nextAttemptAt: this.timers.now() + this.backoff(1, error), lastError: describeAttemptError(error) };
      try {
        await this.store(queued);
      } catch {
        throw error;
      }
      return { status: "queued", entry: queued };
    }
    // An answer came, so whatever waits may go now.
    if (this.entries.length > 0) this.run("all").catch(() => undefined);
    return { status: "sent", result: result as T };
  }

  private deliver(
    entry: OutboxEntry,
    call: Pick<UserCallOptions, "signal" | "timeoutMs"> & { verificationToken?: string | undefined } = {},
  ): Promise<FeedbackResult | ProposeResult> {
    const options = { userToken: entry.userToken, idempotencyKey: entry.idempotencyKey, signal: call.signal, timeoutMs: call.timeoutMs };
    if (entry.kind === "feedback") return this.client.submitFeedback({ ...entry.payload, verificationToken: call.verificationToken }, options);
    return this.client.submitFeatureRequest({ ...entry.payload, verificationToken: call.verificationToken }, options);
  }

  private async store(entry: OutboxEntry): Promise<OutboxEntry> {
    await this.update((entries) => {
      if (entries.length >= this.maxEntries) throw new OutboxFullError(this.maxEntries);
      return [...entries, entry];
    });
    this.emit({ type: "queued", entry });
    this.schedule();
    return entry;
  }

  /** Exponential backoff with equal jitter (half the delay fixed, half random), at least the server's `Retry-After`. */
  private backoff(attempts: number, error: unknown): number {
    const delay = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** Math.max(0, attempts - 1));
    const hint = error instanceof RateLimitedException ? (error.retryAfterMs ?? 0) : 0;
    return Math.round(Math.max(delay / 2 + (this.random() * delay) / 2, hint));
  }

  private run(mode: "due" | "all"): Promise<void> {
    if (this.running !== null) {
      this.again = this.again === "all" || mode === "all" ? "all" : "due";
      return this.running;
    }
    this.clearTimer();
    this.running = (async () => {
      try {
        for (let next: "due" | "all" | null = mode; next !== null; next = this.takeAgain()) await this.pass(next);
        this.holdUntil = 0;
      } catch (error) {
        this.again = null;
        this.holdUntil = this.timers.now() + this.maxDelayMs;
        throw error;
      } finally {
        this.running = null;
        this.schedule();
      }
    })();
    return this.running;
  }

  private takeAgain(): "due" | "all" | null {
    const again = this.again;
    this.again = null;
    return again;
  }

  /** One walk over the queue, oldest first, stopped by the first entry that has to wait. */
  private async pass(mode: "due" | "all"): Promise<void> {
    for (const { id } of await this.load()) {
      const entry = this.entries.find((e) => e.id === id);
      if (entry === undefined) continue;
      if (mode === "due" && entry.nextAttemptAt > this.timers.now()) return;
      if ((await this.attempt(entry)) === "later") return;
    }
  }

  private async attempt(entry: OutboxEntry): Promise<Outcome> {
    let result: FeedbackResult | ProposeResult;
    try {
      result = await this.deliver(entry);
    } catch (error) {
      if (isRetryable(error)) {
        const attempts = entry.attempts + 1;
        const retry = { attempts, nextAttemptAt: this.timers.now() + this.backoff(attempts, error), lastError: describeAttemptError(error) };
        await this.update((entries) => entries.map((e) => (e.id === entry.id ? { ...e, ...retry } : e)));
        return "later";
      }
      await this.update((entries) => entries.filter((e) => e.id !== entry.id));
      this.emit({ type: "failed", entry, error });
      return "done";
    }
    await this.update((entries) => entries.filter((e) => e.id !== entry.id));
    this.emit({ type: "sent", entry, result });
    return "done";
  }

  /**
   * Reads storage, applies `change` (undefined: no change) and writes the result, one update at a
   * time. Reading first keeps entries another tab added; a failed read falls back to memory.
   */
  private update(change: (entries: readonly OutboxEntry[]) => readonly OutboxEntry[] | undefined): Promise<readonly OutboxEntry[]> {
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
        this.emit({ type: "changed", pending: entries });
      }
      return entries;
    });
    this.updates = next.catch(() => undefined);
    return next;
  }

  private schedule(): void {
    this.clearTimer();
    const head = this.entries[0];
    if (!this.started || this.running !== null || head === undefined) return;
    const delay = Math.max(0, head.nextAttemptAt - this.timers.now(), this.holdUntil - this.timers.now());
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.run("due").catch(() => undefined);
    }, delay);
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private emit(event: OutboxEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
