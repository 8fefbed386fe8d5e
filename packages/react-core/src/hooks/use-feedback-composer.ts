import {
  normalizePickedAttachment,
  resolveSubmissionPlatform,
  type AttachmentDescriptor,
  type FeedbackDraft,
  type FeedbackResult,
  type Platform,
  type UploadRequest,
} from "@tidings/client";
import { useCallback, useRef, useState } from "react";
import { useTidings } from "../context.js";

/** One attachment of the draft. */
export interface ComposerAttachment {
  id: string;
  name: string;
  mimeType: string | undefined;
  size: number | undefined;
  /** `uploading` shows indeterminate progress; `error` keeps the row with its message. */
  status: "uploading" | "ready" | "error";
  descriptor?: AttachmentDescriptor;
  /** The bytes when the pick carried them (a File or Blob), for previews. */
  file?: Blob;
  /**
   * The address of the picked file when the pick named one (a React Native `{uri}` file part, a
   * `fileUri`, a string file, or an uploaded descriptor's url), for previews without the bytes.
   */
  uri?: string;
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
  status: "idle" | "submitting" | "sent" | "error";
  /** Localized error of the last attempt (verification, quota, subscription…). */
  error: string | undefined;
  result: FeedbackResult | null;
  canSubmit: boolean;
  /** Sends the draft; on failure the draft stays intact (rule 11). */
  submit: () => Promise<FeedbackResult | null>;
  /** Empties the draft and leaves the sent or error state, for "send another". */
  startOver: () => void;
}

let nextId = 0;

/** The address a picked upload names, if any (see {@link ComposerAttachment.uri}). */
function uploadUri(file: UploadRequest["file"]): string | undefined {
  if (typeof file === "string") return file === "" ? undefined : file;
  if (typeof file === "object" && file !== null && "uri" in file && typeof file.uri === "string" && file.uri !== "") return file.uri;
  return undefined;
}

/**
 * The feedback composer's state machine over the SDK. Uploads start as soon as a file is picked.
 *
 * @example
 * ```ts
 * const composer = useFeedbackComposer();
 * composer.addAttachment({ file, filename: file.name, mimeType: file.type });
 * await composer.submit();
 * ```
 */
export function useFeedbackComposer(options: { defaultPlatform?: Platform | undefined } = {}): FeedbackComposerState {
  const { client, config, userToken, isEnabled, errorMessage, t } = useTidings();
  const enabled = isEnabled("feedback");
  const [title, setTitle] = useState("");
  const [details, setDetails] = useState("");
  const [chosenPlatform, setPlatform] = useState<Platform | undefined>(undefined);
  const [attachments, setAttachments] = useState<ComposerAttachment[]>([]);
  const [status, setStatus] = useState<FeedbackComposerState["status"]>("idle");
  const [error, setError] = useState<string | undefined>(undefined);
  const [result, setResult] = useState<FeedbackResult | null>(null);
  const submitting = useRef(false);

  const allowedPlatforms = config?.allowedPlatforms ?? [];
  const platform = resolveSubmissionPlatform({
    draft: chosenPlatform,
    defaultPlatform: options.defaultPlatform ?? client.defaultPlatform,
    allowed: allowedPlatforms,
  });

  const patch = (id: string, change: Partial<ComposerAttachment>) =>
    setAttachments((old) => old.map((a) => (a.id === id ? { ...a, ...change } : a)));

  const addAttachment = useCallback(
    (picked: unknown) => {
      if (!enabled) return;
      const id = `att_${++nextId}`;
      let normalized: ReturnType<typeof normalizePickedAttachment>;
      try {
        normalized = normalizePickedAttachment(picked);
      } catch (e) {
        setAttachments((old) => [...old, { id, name: "?", mimeType: undefined, size: undefined, status: "error", error: errorMessage(e) }]);
        return;
      }
      if (normalized.type === "descriptor") {
        const d = normalized.descriptor;
        setAttachments((old) => [
          ...old,
          { id, name: d.filename ?? d.key, mimeType: d.mimeType, size: d.size, status: "ready", descriptor: d, ...(d.url ? { uri: d.url } : {}) },
        ]);
        return;
      }
      const request: UploadRequest = normalized.request;
      const file = request.file instanceof Blob ? request.file : undefined;
      const size = file?.size;
      const row: ComposerAttachment = { id, name: request.filename, mimeType: request.mimeType, size, status: "uploading" };
      if (file !== undefined) row.file = file;
      const uri = uploadUri(request.file);
      if (uri !== undefined) row.uri = uri;
      const limit = config?.maxAttachmentBytes;
      if (size !== undefined && typeof limit === "number" && limit > 0 && size > limit) {
        setAttachments((old) => [...old, { ...row, status: "error", error: t("feedback.tooLarge", { name: request.filename }) }]);
        return;
      }
      setAttachments((old) => [...old, row]);
      client.uploadAttachment(request, { userToken: userToken ?? undefined }).then(
        (descriptor) => patch(id, { status: "ready", descriptor }),
        (e: unknown) => patch(id, { status: "error", error: errorMessage(e) }),
      );
    },
    [client, config, enabled, errorMessage, t, userToken],
  );

  const removeAttachment = useCallback((id: string) => setAttachments((old) => old.filter((a) => a.id !== id)), []);

  const uploading = attachments.some((a) => a.status === "uploading");
  const canSubmit = enabled && status !== "submitting" && title.trim() !== "" && !uploading;

  const submit = useCallback(async () => {
    if (!enabled || submitting.current) return null;
    if (attachments.some((a) => a.status === "uploading")) {
      setError(t("feedback.waitUploads"));
      return null;
    }
    submitting.current = true;
    setStatus("submitting");
    setError(undefined);
    const draft: FeedbackDraft = {
      title,
      details,
      platform,
      attachments: attachments.flatMap((a) => (a.status === "ready" && a.descriptor !== undefined ? [a.descriptor] : [])),
    };
    try {
      const sent = await client.submitFeedback(draft, { userToken: userToken ?? undefined });
      setResult(sent);
      setStatus("sent");
      setTitle("");
      setDetails("");
      setAttachments([]);
      return sent;
    } catch (e) {
      // Rule 11: title, details and attachments stay as they were.
      setError(errorMessage(e));
      setStatus("error");
      return null;
    } finally {
      submitting.current = false;
    }
  }, [attachments, client, details, enabled, errorMessage, platform, t, title, userToken]);

  const startOver = useCallback(() => {
    setTitle("");
    setDetails("");
    setAttachments([]);
    setError(undefined);
    setResult(null);
    setStatus("idle");
  }, []);

  return {
    enabled,
    title,
    setTitle: (value) => {
      setTitle(value);
      if (status === "sent") setStatus("idle");
    },
    details,
    setDetails,
    platform,
    setPlatform,
    allowedPlatforms,
    attachments,
    addAttachment,
    removeAttachment,
    status,
    error,
    result,
    canSubmit,
    submit,
    startOver,
  };
}
