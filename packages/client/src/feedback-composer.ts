import type { CallOptions } from "./call-options.js";
import type { FeedbackClient } from "./client.js";
import type { ComposerAttachment } from "./feedback-composer-attachment.js";
import type { FeedbackDraft } from "./feedback.js";
import type { ComposerSubmitFields, FeedbackComposerOptions, FeedbackComposerSettings } from "./feedback-composer-options.js";
import { emptyDraft, type ComposerDraft, type FeedbackComposerState } from "./feedback-composer-state.js";
import { isSurfaceEnabled } from "./feature-flags.js";
import type { OutboxEntry } from "./outbox-entry.js";
import { pickedAttachment } from "./picked-attachment.js";
import { resolveSubmissionPlatform, type Platform } from "./platform.js";
import type { FeedbackResult } from "./results.js";

/**
 * The feedback composer without a UI framework: title, details, platform and attachments, uploads
 * started as soon as a file is picked, submission through the client. The draft survives every
 * failure and is cleared only by a successful submission.
 *
 * @example
 * ```ts
 * const composer = new FeedbackComposerController(client, { config });
 * composer.setTitle("Crash on start");
 * composer.addAttachment({ file, filename: file.name, mimeType: file.type });
 * const result = await composer.submit(); // null on failure: see getState().error
 * ```
 */
export class FeedbackComposerController {
  private state: FeedbackComposerState;
  private readonly listeners = new Set<(state: FeedbackComposerState) => void>();
  private readonly uploads = new Map<string, Promise<void>>();
  private config: FeedbackComposerOptions["config"];
  private nextId = 0;
  /** Stops listening for the outcome of the queued submission. */
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly client: Pick<FeedbackClient, "submitFeedback" | "uploadAttachment" | "defaultPlatform">,
    private options: FeedbackComposerOptions = {},
  ) {
    this.config = options.config;
    this.state = this.derive({ draft: emptyDraft(), status: "idle", error: undefined, result: null, queued: null });
  }

  /** The current state (what `subscribe` listeners receive). */
  getState(): FeedbackComposerState {
    return this.state;
  }

  /** Calls `listener` with every new state; returns the unsubscribe function. */
  subscribe(listener: (state: FeedbackComposerState) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Applies a (re)loaded config: the platform allowlist and the `feedback` flag. */
  setConfig(config: FeedbackComposerOptions["config"]): void {
    this.config = config;
    this.set({});
  }

  /** Applies new settings (a signed-in user's token, another outbox…) and keeps the draft. */
  setSettings(settings: FeedbackComposerSettings): void {
    this.options = { ...this.options, ...settings };
    this.set({});
  }

  /** Sets the draft's title. */
  setTitle(title: string): void {
    this.editDraft({ title });
  }

  /** Sets the draft's details. */
  setDetails(details: string): void {
    this.editDraft({ details });
  }

  /** Picks the platform sent (undefined: the default); one outside the app's allowlist falls back to the first allowed. */
  setPlatform(platform: Platform | undefined): void {
    this.editDraft({ platform });
  }

  /**
   * Rule 10: adds a picked value. A descriptor is attached as is, an upload request or the legacy
   * `{fileUri}` shape is uploaded now (unless its bytes are over the config's `maxAttachmentBytes`:
   * an {@link AttachmentTooLargeError} row), anything else becomes a row with its localizable error.
   * Returns the row's id, or undefined while the `feedback` flag is off.
   */
  addAttachment(picked: unknown): string | undefined {
    if (!this.state.enabled) return undefined;
    const id = `att_${++this.nextId}`;
    const { row, upload: request } = pickedAttachment(id, picked, this.config);
    this.addRow(row);
    if (request === undefined) return id;
    const upload = this.client.uploadAttachment(request, { userToken: this.options.userToken }).then(
      (descriptor) => this.patchRow(id, { status: "ready", descriptor }),
      (error: unknown) => this.patchRow(id, { status: "error", error }),
    );
    this.uploads.set(id, upload.finally(() => this.uploads.delete(id)));
    return id;
  }

  /** Removes an attachment from the draft; it is not sent with the submission. */
  removeAttachment(id: string): void {
    this.editDraft({ attachments: this.state.draft.attachments.filter((a) => a.id !== id) });
  }

  /**
   * Waits for uploads still running, then submits the title, details, rule-4 platform and every
   * ready attachment. Resolves with the result and clears the draft; on failure resolves null
   * with the error in the state and the draft untouched. With an `outbox`, a submission that
   * reaches no server resolves null with status `queued`, its entry in `queued`, the draft cleared.
   */
  async submit(fields: ComposerSubmitFields = {}, options: CallOptions = {}): Promise<FeedbackResult | null> {
    if (!this.state.canSubmit) return null;
    this.set({ status: "submitting", error: undefined });
    try {
      await Promise.all(this.uploads.values());
      const { draft, platform } = this.state;
      const attachments = draft.attachments.flatMap((a) => (a.status === "ready" && a.descriptor !== undefined ? [a.descriptor] : []));
      const draftToSend: FeedbackDraft = { ...fields, title: draft.title, details: draft.details, platform, attachments };
      const callOptions = { ...options, userToken: this.options.userToken };
      const outbox = this.options.outbox;
      const outcome =
        outbox === undefined
          ? { status: "sent" as const, result: await this.client.submitFeedback(draftToSend, callOptions) }
          : await outbox.submitFeedbackOrQueue(draftToSend, callOptions);
      if (outcome.status === "queued") {
        this.set({ draft: emptyDraft(), status: "queued", result: null, queued: outcome.entry });
        if (outbox !== undefined) this.watch(outbox, outcome.entry);
        return null;
      }
      this.set({ draft: emptyDraft(), status: "sent", result: outcome.result, queued: null });
      return outcome.result;
    } catch (error) {
      this.set({ status: "error", error });
      return null;
    }
  }

  /** Empties the draft and forgets the last outcome. */
  reset(): void {
    this.set({ draft: emptyDraft(), status: "idle", error: undefined, result: null, queued: null });
  }

  /** Follows the outbox until it sent or dropped `entry`; the notice changes only while it is still shown. */
  private watch(outbox: NonNullable<FeedbackComposerOptions["outbox"]>, entry: OutboxEntry): void {
    this.unwatch?.();
    this.unwatch = outbox.subscribe?.((event) => {
      if ((event.type !== "sent" && event.type !== "failed") || event.entry.id !== entry.id) return;
      this.unwatch?.();
      this.unwatch = undefined;
      if (this.state.status !== "queued" || this.state.queued?.id !== entry.id) return;
      if (event.type === "sent") this.set({ status: "sent", result: event.result as FeedbackResult, queued: null });
      else this.set({ status: "error", error: event.error, queued: null });
    });
  }

  private addRow(row: ComposerAttachment): void {
    this.editDraft({ attachments: [...this.state.draft.attachments, row] });
  }

  /** Updates a row if it is still there (it may have been removed while uploading). */
  private patchRow(id: string, patch: Partial<ComposerAttachment>): void {
    const attachments = this.state.draft.attachments.map((a) => (a.id === id ? { ...a, ...patch } : a));
    this.set({ draft: { ...this.state.draft, attachments } });
  }

  /** A user edit: a `sent` or `queued` notice gives way to the new draft. */
  private editDraft(patch: Partial<ComposerDraft>): void {
    const notice = this.state.status === "sent" || this.state.status === "queued";
    this.set({ draft: { ...this.state.draft, ...patch }, ...(notice ? { status: "idle" as const } : {}) });
  }

  private derive(base: Pick<FeedbackComposerState, "draft" | "status" | "error" | "result" | "queued">): FeedbackComposerState {
    const uploading = base.draft.attachments.some((a) => a.status === "uploading");
    const enabled = isSurfaceEnabled(this.config, "feedback");
    const platform = resolveSubmissionPlatform({
      draft: base.draft.platform,
      defaultPlatform: this.options.defaultPlatform ?? this.client.defaultPlatform,
      allowed: this.config?.allowedPlatforms,
    });
    const held = uploading && this.options.holdWhileUploading === true;
    const canSubmit = enabled && base.status !== "submitting" && base.draft.title.trim() !== "" && !held;
    return { ...base, enabled, platform, uploading, canSubmit };
  }

  private set(patch: Partial<Pick<FeedbackComposerState, "draft" | "status" | "error" | "result" | "queued">>): void {
    this.state = this.derive({ ...this.state, ...patch });
    for (const listener of [...this.listeners]) listener(this.state);
  }
}
