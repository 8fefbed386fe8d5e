import type { Platform, UploadRequest } from "@tidings/client";
import { useEffect, useId, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent } from "react";
import { useTidings, useFeedbackComposer, type ComposerAttachment } from "@tidings/react-core";
import { CustomFieldInputs } from "./CustomFieldInputs.js";
import { TidingsScreen } from "./TidingsScreen.js";

/** Props of {@link FeedbackComposer}. */
export interface FeedbackComposerProps {
  /**
   * A custom attachment picker (rule 10): return an uploaded descriptor, an upload request, the
   * legacy `{fileUri}` shape, or a list of them; anything else shows a localized error. When
   * absent, the browser's file picker is used.
   */
  pickAttachment?: (() => unknown) | undefined;
  /**
   * Adds a "Screenshot of this screen" action: resolve with an upload request of the image (a
   * `Blob` or `File` with an `image/*` type), or `null` when there is none.
   * @default undefined (no screenshot action)
   */
  captureScreenshot?: (() => Promise<UploadRequest | null>) | undefined;
  /** Platform candidate before the allowlist check (rule 4). @default the client's default (`web` in a browser) */
  defaultPlatform?: Platform | undefined;
  /**
   * Let the person typing pick the platform (a page that serves several, like the portal):
   * the allowlist, or every platform when it is empty. Off, rule 4 picks it.
   * @default false
   */
  showPlatformPicker?: boolean | undefined;
  /** Called with the submission id once the server accepted the feedback. */
  onSubmitted?: ((submissionId: string) => void) | undefined;
}

/** Addresses a browser can show as an image: an uploaded file's URL, or a blob or data URL a host's picker gave. */
const displayable = (uri: string | undefined) => (uri !== undefined && /^(https?:|blob:|data:image\/)/i.test(uri) ? uri : undefined);

function Preview(props: { attachment: ComposerAttachment }) {
  const { file, isImage, uri } = props.attachment;
  const fromFile = isImage && file !== undefined;
  const objectUrl = useMemo(() => (fromFile && typeof URL.createObjectURL === "function" ? URL.createObjectURL(file) : undefined), [file, fromFile]);
  useEffect(() => () => (objectUrl === undefined ? undefined : URL.revokeObjectURL(objectUrl)), [objectUrl]);
  const src = objectUrl ?? (isImage ? displayable(uri) : undefined);
  return src === undefined ? <span className="td-file-icon" aria-hidden="true">📄</span> : <img className="td-thumb" src={src} alt="" />;
}

function pickedFiles(files: FileList | readonly File[] | null | undefined): { file: File; filename: string; mimeType: string }[] {
  return [...(files ?? [])].map((file) => ({
    file,
    filename: file.name || `screenshot-${Date.now()}.${(file.type.split("/")[1] ?? "png").replace("jpeg", "jpg")}`,
    mimeType: file.type || "application/octet-stream",
  }));
}

/**
 * The feedback form: title, details, the app's custom fields for feedback, an attachments step (files by picker, drag and drop or
 * paste, a screenshot from the host's `captureScreenshot`; each listed with a thumbnail for images,
 * upload progress and a remove button; the picker contract of rule 10) and localized errors that
 * leave the draft intact (rule 11). The platform is rule 4's; a picker shows only with
 * `showPlatformPicker`. With an outbox in the provider, a submission made without a connection is
 * kept and the saved-on-this-device notice shows. With the `feedback` flag off, submission is
 * disabled, picks are ignored and the unavailable message shows.
 *
 * @example
 * ```tsx
 * <FeedbackComposer onSubmitted={(id) => console.log(id)} />
 * ```
 */
export function FeedbackComposer(props: FeedbackComposerProps) {
  const { t } = useTidings();
  const composer = useFeedbackComposer({ defaultPlatform: props.defaultPlatform, showPlatformPicker: props.showPlatformPicker });
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { title: useId(), details: useId(), platform: useId(), files: useId(), hint: useId(), unavailable: useId() };
  const disabled = !composer.enabled;

  const addAll = (values: unknown) => {
    for (const value of Array.isArray(values) ? values : [values]) composer.addAttachment(value);
  };
  const onPick = () => {
    if (disabled) return;
    if (props.pickAttachment === undefined) fileInput.current?.click();
    else void composer.attach(props.pickAttachment);
  };
  const capture = props.captureScreenshot;
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) addAll(pickedFiles(event.dataTransfer.files));
  };
  const onPaste = (event: ClipboardEvent) => {
    if (disabled) return;
    const files = [...event.clipboardData.items].filter((i) => i.kind === "file").map((i) => i.getAsFile()).filter((f): f is File => f !== null);
    if (files.length === 0) return;
    event.preventDefault();
    addAll(pickedFiles(files));
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const sent = await composer.submit();
    if (sent !== null) props.onSubmitted?.(sent.submissionId);
  };

  return (
    <TidingsScreen label={t("feedback.title")}>
      {disabled ? (
        <p id={ids.unavailable} className="td-state td-unavailable" role="status">
          {t("feedback.unavailable")}
        </p>
      ) : null}
      <form className="td-stack td-composer" onSubmit={(e) => void onSubmit(e)} onPaste={onPaste} aria-describedby={disabled ? ids.unavailable : undefined}>
        <label htmlFor={ids.title}>{t("feedback.subject")}</label>
        <input id={ids.title} className="td-input" value={composer.title} maxLength={200} required disabled={disabled} onChange={(e) => composer.setTitle(e.target.value)} />
        <label htmlFor={ids.details}>{t("feedback.details")}</label>
        <textarea id={ids.details} className="td-input" rows={5} value={composer.details} disabled={disabled} onChange={(e) => composer.setDetails(e.target.value)} />
        <CustomFieldInputs fields={composer.fields} disabled={disabled} />
        {composer.platformChoices.length > 1 ? (
          <>
            <label htmlFor={ids.platform}>{t("feedback.platform")}</label>
            <select id={ids.platform} className="td-input" value={composer.platform} disabled={disabled} onChange={(e) => composer.setPlatform(e.target.value as Platform)}>
              {composer.platformChoices.map((p) => (
                <option key={p} value={p}>
                  {t(`platform.${p}`)}
                </option>
              ))}
            </select>
          </>
        ) : composer.platformChoices.length === 1 ? (
          <p className="td-muted">
            {t("feedback.platform")}: {t(`platform.${composer.platform}`)}
          </p>
        ) : null}
        <fieldset className="td-fieldset" disabled={disabled} aria-describedby={ids.hint}>
          <legend>{t("feedback.attachments")}</legend>
          <p id={ids.hint} className="td-muted td-small">
            {t("feedback.attachHint")}
          </p>
          <div
            className={`td-dropzone${dragging ? " td-dragging" : ""}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <p className="td-muted td-small">{t("feedback.dropHint")}</p>
            <div className="td-actions">
              {capture === undefined ? null : (
                <button type="button" className="td-button" disabled={composer.picking} onClick={() => void composer.attach(capture)}>
                  {t("feedback.screenshot")}
                </button>
              )}
              <button type="button" className="td-button" disabled={composer.picking} onClick={onPick}>
                {t("feedback.attach")}
              </button>
            </div>
            <input
              ref={fileInput}
              id={ids.files}
              type="file"
              multiple
              hidden
              aria-label={t("feedback.attach")}
              onChange={(e) => {
                addAll(pickedFiles(e.target.files));
                e.target.value = "";
              }}
            />
          </div>
          {composer.attachments.length > 0 ? (
            <ul className="td-attachments">
              {composer.attachments.map((a) => (
                <li key={a.id} className={`td-attachment td-attachment-${a.status}`}>
                  <Preview attachment={a} />
                  <span className="td-attachment-name">{a.name}</span>
                  {a.status === "uploading" ? (
                    <progress className="td-progress" aria-label={t("feedback.uploading", { name: a.name })} />
                  ) : a.status === "error" ? (
                    <span role="alert" className="td-danger td-small">
                      {a.error}
                    </span>
                  ) : (
                    <span className="td-visually-hidden">{t("feedback.uploaded", { name: a.name })}</span>
                  )}
                  <button type="button" className="td-icon-button" aria-label={t("feedback.remove", { name: a.name })} onClick={() => composer.removeAttachment(a.id)}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </fieldset>
        {composer.error ?? composer.pickError ? (
          <p role="alert" className="td-notice td-danger">
            {composer.error ?? composer.pickError}
          </p>
        ) : null}
        {composer.status === "sent" ? (
          <p role="status" className="td-notice td-success">
            {t("feedback.sent")}
          </p>
        ) : null}
        {composer.status === "queued" ? (
          <p role="status" className="td-notice td-success">
            {t("outbox.queued")}
          </p>
        ) : null}
        <div className="td-actions">
          <button type="submit" className="td-button td-primary" disabled={!composer.canSubmit}>
            {composer.status === "submitting" ? t("feedback.sending") : t("feedback.submit")}
          </button>
        </div>
      </form>
    </TidingsScreen>
  );
}
