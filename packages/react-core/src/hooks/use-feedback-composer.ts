import {
  AttachmentTooLargeError,
  FeedbackComposerController,
  isSurfaceEnabled,
  type ComposerAttachment as ControllerAttachment,
  type FeedbackResult,
  type OutboxEntry,
  type Platform,
  PLATFORMS,
} from "@tidings/client";
import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useTidings } from "../context.js";
import { useCustomFields, type CustomFieldsState } from "./use-custom-fields.js";

/** One attachment of the draft, as the controller keeps it, with its error localized. */
export interface ComposerAttachment extends Omit<ControllerAttachment, "error"> {
  /** Why the row cannot be sent, in the provider's locale. */
  error?: string;
  /** An image (by mime type or uploaded kind): renderers show a thumbnail where they have its bytes or address. */
  isImage: boolean;
}

/** Options of {@link useFeedbackComposer}. */
export interface UseFeedbackComposerOptions {
  /** The rule-4 candidate before the app's allowlist is applied. @default the client's `defaultPlatform` */
  defaultPlatform?: Platform | undefined;
  /**
   * Offer the person typing a platform picker (a web page serving several platforms). Off, the
   * platform is rule 4's alone (draft, then client default, then runtime OS, checked against
   * `allowedPlatforms`) and `platformChoices` is empty.
   * @default false
   */
  showPlatformPicker?: boolean | undefined;
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
  /**
   * What a platform picker offers: empty unless `showPlatformPicker` (show none), else the
   * allowlist, or every platform when it is empty. One entry leaves nothing to choose: show it as text.
   */
  platformChoices: readonly Platform[];
  attachments: ComposerAttachment[];
  /**
   * Rule 10: adds a picked value — an uploaded descriptor (attached as is), an upload request or
   * the legacy `{fileUri}` shape (uploaded now). Anything else adds a row with a localized error.
   * Ignored while the `feedback` flag is off.
   */
  addAttachment: (picked: unknown) => void;
  /**
   * Runs a host's picker or screenshot capture and adds what it resolves with (one value or a
   * list, each as {@link FeedbackComposerState.addAttachment}); `null` or `undefined` is a cancel.
   * What it throws becomes `pickError`. Ignored while another runs or the `feedback` flag is off.
   */
  attach: (source: () => unknown) => Promise<void>;
  /** True while a source given to `attach` runs. */
  picking: boolean;
  /** Localized error of the last source that threw; cleared when the next one starts. */
  pickError: string | undefined;
  removeAttachment: (id: string) => void;
  /** `queued`: the provider's outbox kept the submission to send it later (show `t("outbox.queued")`). */
  status: "idle" | "submitting" | "sent" | "queued" | "error";
  /** Localized error of the last attempt (verification, quota, subscription, a field needing attention…). */
  error: string | undefined;
  /** The custom fields the app asks on feedback, with the values entered and their problems: draw them in the form. */
  fields: CustomFieldsState;
  result: FeedbackResult | null;
  /** The outbox entry of a `queued` submission. */
  queued: OutboxEntry | null;
  /** False while the title is blank, an upload runs, a submission is under way or the flag is off. */
  canSubmit: boolean;
  /**
   * Checks the custom fields, then sends the draft with their values; on failure the draft stays
   * intact (rule 11), and a field the server refused shows its problem under it.
   */
  submit: () => Promise<FeedbackResult | null>;
  /** Empties the draft (custom fields too) and leaves the sent, queued or error state, for "send another". */
  startOver: () => void;
}

/**
 * The feedback composer of the provider's client: a `FeedbackComposerController` of `@tidings/client` (one per
 * client) fed the provider's config, user token and outbox, its errors localized, with the custom
 * fields the app asks on feedback.
 *
 * @example
 * ```ts
 * const composer = useFeedbackComposer();
 * composer.addAttachment({ file, filename: file.name, mimeType: file.type });
 * await composer.submit();
 * ```
 */
export function useFeedbackComposer(options: UseFeedbackComposerOptions = {}): FeedbackComposerState {
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

  const showPicker = options.showPlatformPicker === true;
  // A platform picked while a picker was shown is not the user's choice once it is gone.
  useEffect(() => {
    if (!showPicker && controller.getState().draft.platform !== undefined) controller.setPlatform(undefined);
  }, [controller, showPicker]);

  const [pick, setPick] = useState<{ running: boolean; error: unknown }>({ running: false, error: undefined });
  const running = useRef(false);
  const fields = useCustomFields("feedback", { enabled: isSurfaceEnabled(config, "feedback") });
  /** Set when the fields need attention: shown instead of the controller's error. */
  const [fieldsNotice, setFieldsNotice] = useState<string | undefined>(undefined);
  // Read by the stable actions below.
  const form = useRef({ fields, checkForm: t("fields.checkForm") });
  form.current = { fields, checkForm: t("fields.checkForm") };

  const state = useSyncExternalStore(
    (onChange) => controller.subscribe(onChange),
    () => controller.getState(),
  );

  // The fields empty in the commit that shows the thanks, as the title and details do, so no
  // frame shows the sent values under it. Only a submission of this form's values does so: an
  // outbox sending a queued one later leaves what the user has picked since.
  const sending = useRef(false);
  const resetFields = fields.reset;
  useLayoutEffect(() => {
    if (!sending.current || (state.status !== "sent" && state.status !== "queued")) return;
    sending.current = false;
    resetFields();
  }, [state.status, resetFields]);

  const attachments = useMemo(
    () =>
      state.draft.attachments.map(({ error, ...row }): ComposerAttachment => {
        const isImage = (row.mimeType ?? "").toLowerCase().startsWith("image/") || row.descriptor?.kind === "image";
        if (row.status !== "error") return { ...row, isImage };
        return { ...row, isImage, error: error instanceof AttachmentTooLargeError ? t("feedback.tooLarge", { name: row.name }) : errorMessage(error) };
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
      attach: async (source: () => unknown) => {
        if (running.current || !controller.getState().enabled) return;
        running.current = true;
        setPick({ running: true, error: undefined });
        let error: unknown;
        try {
          const picked: unknown = await source();
          if (picked !== null && picked !== undefined) {
            for (const value of Array.isArray(picked) ? (picked as unknown[]) : [picked]) controller.addAttachment(value);
          }
        } catch (e) {
          error = e;
        } finally {
          running.current = false;
          setPick({ running: false, error });
        }
      },
      removeAttachment: (id: string) => controller.removeAttachment(id),
      submit: async () => {
        const { fields: custom, checkForm } = form.current;
        if (!controller.getState().canSubmit) return null;
        const values = custom.check();
        setFieldsNotice(values === null ? checkForm : undefined);
        if (values === null) return null;
        sending.current = true;
        const result = await controller.submit({ fields: values });
        const after = controller.getState();
        const accepted = after.status === "sent" || after.status === "queued";
        // Not drawn yet (or no longer mounted): the effect above did not run.
        if (accepted && sending.current) custom.reset();
        sending.current = false;
        if (!accepted && custom.showRefusal(after.error)) setFieldsNotice(checkForm);
        return result;
      },
      startOver: () => {
        controller.reset();
        form.current.fields.reset();
        setFieldsNotice(undefined);
      },
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
    platformChoices: showPicker ? (config?.allowedPlatforms?.length ? config.allowedPlatforms : PLATFORMS) : [],
    attachments,
    picking: pick.running,
    pickError: pick.error === undefined ? undefined : errorMessage(pick.error),
    status: state.status,
    error: fieldsNotice ?? (state.status === "error" ? errorMessage(state.error) : undefined),
    fields,
    result: state.result,
    queued: state.queued,
    canSubmit: state.canSubmit,
  };
}
