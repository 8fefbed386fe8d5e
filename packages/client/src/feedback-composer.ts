import { normalizePickedAttachment, type AttachmentDescriptor, type UploadFile } from "./attachments.js";
import type { CallOptions } from "./call-options.js";
import type { FeedbackClient } from "./client.js";
import type { FeedbackDraft } from "./feedback.js";
import { isSurfaceEnabled } from "./feature-flags.js";
import type { Outbox } from "./outbox.js";
import type { OutboxEntry } from "./outbox-entry.js";
import { resolveSubmissionPlatform, type Platform } from "./platform.js";
import type { FeedbackResult, PublicAppConfig } from "./types.js";

/** One picked attachment of the draft. */
export interface ComposerAttachment {
  id: string;
  /** The file name; `?` when the pick named none. */
  name: string;
  mimeType: string | undefined;
  /** Bytes, when known (a Blob's size or the descriptor's). */
  size: number | undefined;
  /** `uploading` until the upload answers; `error` rows stay, with their error, until removed. */
  status: "uploading" | "ready" | "error";
  descriptor?: AttachmentDescriptor;
  /** The bytes when the pick carried them (a File or Blob), for previews. */
  file?: Blob;
  /**
   * The address of the picked file when the pick named one (a React Native `{uri}` file part, a
   * `fileUri`, a string file, or an uploaded descriptor's url), for previews without the bytes.
   */
  uri?: string;
  /**
   * Why the row cannot be sent: an {@link AttachmentTooLargeError} (never uploaded), else what the
   * normalization or upload threw (localize it with `userFacingErrorMessage`).
   */
  error?: unknown;
}

/** A picked file larger than the app's `maxAttachmentBytes`: its row is kept with this error and nothing is uploaded. */
export class AttachmentTooLargeError extends RangeError {
  constructor(
    readonly filename: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(`${filename} is ${size} bytes, over the ${limit} byte limit`);
    this.name = "AttachmentTooLargeError";
  }
}

/** What the user typed and picked; kept intact by every failed submission (rule 11). */
export interface ComposerDraft {
  title: string;
  details: string;
  /** The platform the user chose, if any. */
  platform: Platform | undefined;
  attachments: ComposerAttachment[];
}

/** State of {@link FeedbackComposerController}. */
export interface FeedbackComposerState {
  draft: ComposerDraft;
  /** False while the `feedback` flag is off: submission disabled, picks ignored. */
  enabled: boolean;
  /** The platform a submission sends (rule 4). */
  platform: Platform;
  /** `queued`: no connection, so the outbox keeps the submission and sends it later (message `outbox.queued`). */
  status: "idle" | "submitting" | "sent" | "queued" | "error";
  /** True while an attachment still uploads. */
  uploading: boolean;
  /** The last failed submission's error (verification, quota, subscription, network, timeout…). */
  error: unknown;
  result: FeedbackResult | null;
  /** The outbox entry of a `queued` submission. */
  queued: OutboxEntry | null;
  canSubmit: boolean;
}

/** Options of {@link FeedbackComposerController}. */
export interface FeedbackComposerOptions {
  /** The app's config: its platform allowlist, attachment size limit and `feedback` flag. @default none (any platform, no limit, enabled) */
  config?: (Pick<PublicAppConfig, "allowedPlatforms" | "sdk"> & Partial<Pick<PublicAppConfig, "maxAttachmentBytes">>) | null | undefined;
  /** @default the client's `defaultPlatform` */
  defaultPlatform?: Platform | undefined;
  /** Submits and uploads as this user. @default the client's token */
  userToken?: string | undefined;
  /**
   * Keeps a submission that finds no connection (or times out) for later instead of failing:
   * status `queued`, draft cleared. When the outbox later sends it, a composer still showing that
   * `queued` notice moves to `sent` with the result (or to `error` if the server refused it).
   * @default none: such a submission fails with its error
   */
  outbox?: (Pick<Outbox, "submitFeedbackOrQueue"> & Partial<Pick<Outbox, "subscribe">>) | undefined;
  /**
   * True: `canSubmit` stays false while an attachment uploads (a form's Send button waits).
   * @default false: {@link FeedbackComposerController.submit} waits for running uploads
   */
  holdWhileUploading?: boolean | undefined;
}

/** Options that may change during a composer's life; the draft survives the change. */
export type FeedbackComposerSettings = Pick<FeedbackComposerOptions, "defaultPlatform" | "userToken" | "outbox">;

/** Further fields of a submission (reporter, app version, metadata). */
export type ComposerSubmitFields = Omit<FeedbackDraft, "title" | "details" | "platform" | "attachments">;

const emptyDraft = (): ComposerDraft => ({ title: "", details: "", platform: undefined, attachments: [] });

/** The address a picked upload names, if any (see {@link ComposerAttachment.uri}). */
function uploadUri(file: UploadFile): string | undefined {
  if (typeof file === "string") return file === "" ? undefined : file;
  if (typeof file === "object" && "uri" in file && typeof file.uri === "string" && file.uri !== "") return file.uri;
  return undefined;
}

const isBlob = (file: UploadFile): file is Blob => typeof Blob !== "undefined" && file instanceof Blob;

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
    let normalized: ReturnType<typeof normalizePickedAttachment>;
    try {
      normalized = normalizePickedAttachment(picked);
    } catch (error) {
      this.addRow({ id, name: "?", mimeType: undefined, size: undefined, status: "error", error });
      return id;
    }
    if (normalized.type === "descriptor") {
      const descriptor = normalized.descriptor;
      const row: ComposerAttachment = { id, name: descriptor.filename ?? descriptor.key, mimeType: descriptor.mimeType, size: descriptor.size, status: "ready", descriptor };
      if (descriptor.url) row.uri = descriptor.url;
      this.addRow(row);
      return id;
    }
    const { request } = normalized;
    const file = isBlob(request.file) ? request.file : undefined;
    const row: ComposerAttachment = { id, name: request.filename, mimeType: request.mimeType, size: file?.size, status: "uploading" };
    if (file !== undefined) row.file = file;
    const uri = uploadUri(request.file);
    if (uri !== undefined) row.uri = uri;
    const limit = this.config?.maxAttachmentBytes;
    if (row.size !== undefined && typeof limit === "number" && limit > 0 && row.size > limit) {
      this.addRow({ ...row, status: "error", error: new AttachmentTooLargeError(request.filename, row.size, limit) });
      return id;
    }
    this.addRow(row);
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
