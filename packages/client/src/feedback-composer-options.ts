import type { FeedbackDraft } from "./feedback.js";
import type { Outbox } from "./outbox.js";
import type { Platform } from "./platform.js";
import type { PublicAppConfig } from "./public-config.js";

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
