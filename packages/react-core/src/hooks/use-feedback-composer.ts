import {
  AttachmentTooLargeError,
  FeedbackComposerController,
  type ComposerAttachment as ControllerAttachment,
  type FeedbackResult,
  type OutboxEntry,
  type Platform,
} from "@tidings/client";
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { useTidings } from "../context.js";

/** One attachment of the draft, as the controller keeps it, with its error localized. */
export interface ComposerAttachment extends Omit<ControllerAttachment, "error"> {
  /** Why the row cannot be sent, in the provider's locale. */
  error?: string;
}

/** Draft, attachments and submission of the feedback composer. */
export interface FeedbackComposerState {
  enabled: boolean;
  title: string;
  setTitle: (value: string) => void;
  details: string;
  setDetails: (value: string) => void;
  /** The platform that will be sent (rule 4). */
  platform: Platform;
  setPlatform: (value: Platform) => void;
  /** The app's allowlist (empty: any). */
  allowedPlatforms: readonly Platform[];
  attachments: ComposerAttachment[];
  /**
   * Rule 10: adds a picked value — an uploaded descriptor (attached as is), an upload request or
   * the legacy `{fileUri}` shape (uploaded now). Anything else adds a row with a localized error.
   * Ignored while the `feedback` flag is off.
   */
  addAttachment: (picked: unknown) => void;
  removeAttachment: (id: string) => void;
  /** `queued`: the provider's outbox kept the submission to send it later (show `t("outbox.queued")`). */
  status: "idle" | "submitting" | "sent" | "queued" | "error";
  /** Localized error of the last attempt (verification, quota, subscription…). */
  error: string | undefined;
  result: FeedbackResult | null;
  /** The outbox entry of a `queued` submission. */
  queued: OutboxEntry | null;
  /** False while the title is blank, an upload runs, a submission is under way or the flag is off. */
  canSubmit: boolean;
  /** Sends the draft; on failure the draft stays intact (rule 11). */
  submit: () => Promise<FeedbackResult | null>;
  /** Empties the draft and leaves the sent, queued or error state, for "send another". */
  startOver: () => void;
}

/**
 * The feedback composer of the provider's client: a `FeedbackComposerController` of `@tidings/client` (one per
 * client) fed the provider's config, user token and outbox, its errors localized.
 *
 * @example
 * ```ts
 * const composer = useFeedbackComposer();
 * composer.addAttachment({ file, filename: file.name, mimeType: file.type });
 * await composer.submit();
 * ```
 */
export function useFeedbackComposer(options: { defaultPlatform?: Platform | undefined } = {}): FeedbackComposerState {
  const { client, config, userToken, outbox, errorMessage, t } = useTidings();
  const settings = { defaultPlatform: options.defaultPlatform, userToken: userToken ?? undefined, outbox };
  const create = () => ({ client, controller: new FeedbackComposerController(client, { ...settings, config, holdWhileUploading: true }) });
  const [owned, setOwned] = useState(create);
  // A new client gets a new composer; the draft of the old one goes with it.
  if (owned.client !== client) setOwned(create());
  const { controller } = owned;

  useEffect(() => controller.setConfig(config), [controller, config]);
  useEffect(
    () => controller.setSettings({ defaultPlatform: settings.defaultPlatform, userToken: settings.userToken, outbox: settings.outbox }),
    [controller, settings.defaultPlatform, settings.userToken, settings.outbox],
  );

  const state = useSyncExternalStore(
    (onChange) => controller.subscribe(onChange),
    () => controller.getState(),
  );

  const attachments = useMemo(
    () =>
      state.draft.attachments.map(({ error, ...row }): ComposerAttachment => {
        if (row.status !== "error") return row;
        return { ...row, error: error instanceof AttachmentTooLargeError ? t("feedback.tooLarge", { name: row.name }) : errorMessage(error) };
      }),
    [state.draft.attachments, errorMessage, t],
  );

  // Stable for the composer's life, like the setters of React state.
  const actions = useMemo(
    () => ({
      setTitle: (value: string) => controller.setTitle(value),
      setDetails: (value: string) => controller.setDetails(value),
      setPlatform: (value: Platform) => controller.setPlatform(value),
      addAttachment: (picked: unknown) => void controller.addAttachment(picked),
      removeAttachment: (id: string) => controller.removeAttachment(id),
      submit: () => controller.submit(),
      startOver: () => controller.reset(),
    }),
    [controller],
  );

  return {
    ...actions,
    enabled: state.enabled,
    title: state.draft.title,
    details: state.draft.details,
    platform: state.platform,
    allowedPlatforms: config?.allowedPlatforms ?? [],
    attachments,
    status: state.status,
    error: state.status === "error" ? errorMessage(state.error) : undefined,
    result: state.result,
    queued: state.queued,
    canSubmit: state.canSubmit,
  };
}
