import type { ComposerAttachment } from "./feedback-composer-attachment.js";
import type { OutboxEntry } from "./outbox-entry.js";
import type { Platform } from "./platform.js";
import type { FeedbackResult } from "./results.js";

/** What the user typed and picked; kept intact by every failed submission (rule 11). */
export interface ComposerDraft {
  title: string;
  details: string;
  /** The platform the user chose, if any. */
  platform: Platform | undefined;
  attachments: ComposerAttachment[];
}

/** A draft with nothing typed or picked. */
export const emptyDraft = (): ComposerDraft => ({ title: "", details: "", platform: undefined, attachments: [] });

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
