import { FeedbackException } from "./errors.js";

/** An uploaded object, attached to feedback as is. */
export interface AttachmentDescriptor {
  kind: string;
  key: string;
  url: string;
  filename?: string;
  mimeType?: string;
  size?: number;
  uploadId?: string;
}

/** A React Native file reference (`{uri, name, type}`), appended to multipart bodies as is. */
export interface FileReference {
  uri: string;
  name?: string;
  type?: string;
}

/** What an upload can send: bytes, a Blob/File, a local URI or an RN file reference. */
export type UploadFile = Blob | ArrayBuffer | Uint8Array | string | FileReference;

/** An upload the SDK performs (spec: "Upload request"). */
export interface UploadRequest {
  file: UploadFile;
  filename: string;
  mimeType: string;
  /** `image` sends it to the image endpoint whatever the mime type. */
  preferredKind?: string | undefined;
  /** Per-call override of `uploadTimeoutMs`. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** The legacy picker shape, normalised into an {@link UploadRequest}. */
export interface LegacyPickedFile {
  fileUri: string;
  filename?: string;
  mimeType?: string;
  kind?: string;
}

/** Anything an attachment picker may hand to a composer. */
export type PickedAttachment = AttachmentDescriptor | UploadRequest | LegacyPickedFile;

/** A picked value of none of the three accepted shapes; `messageId` names the localized text. */
export class UnsupportedAttachmentException extends FeedbackException {
  override readonly messageId = "error.unsupportedAttachment";
}

const MIME_BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
  txt: "text/plain",
  log: "text/plain",
  json: "application/json",
  pdf: "application/pdf",
  zip: "application/zip",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

const isString = (value: unknown): value is string => typeof value === "string" && value !== "";

/**
 * Rule 10: sorts a picked value into an attachment to send as is or an upload to perform; the
 * legacy `{fileUri, filename?, mimeType?, kind?}` shape becomes an upload. Anything else throws
 * {@link UnsupportedAttachmentException}.
 *
 * @example
 * ```ts
 * normalizePickedAttachment({ fileUri: "file:///tmp/shot.png" });
 * // { type: "upload", request: { file: { uri: "file:///tmp/shot.png", name: "shot.png", type: "image/png" }, filename: "shot.png", mimeType: "image/png" } }
 * ```
 */
export function normalizePickedAttachment(
  value: unknown,
): { type: "descriptor"; descriptor: AttachmentDescriptor } | { type: "upload"; request: UploadRequest } {
  if (!isRecord(value)) throw unsupported();
  if (isString(value.kind) && (isString(value.key) || isString(value.uploadId)) && typeof value.url === "string" && !("file" in value)) {
    return { type: "descriptor", descriptor: value as unknown as AttachmentDescriptor };
  }
  if (value.file !== undefined && value.file !== null && isString(value.filename) && isString(value.mimeType)) {
    return { type: "upload", request: value as unknown as UploadRequest };
  }
  if (isString(value.fileUri)) {
    const uri = value.fileUri;
    const filename = isString(value.filename) ? value.filename : decodeURIComponent(uri.split(/[/?#]/).filter(Boolean).pop() ?? "attachment");
    const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? "";
    const mimeType = isString(value.mimeType) ? value.mimeType : (MIME_BY_EXTENSION[extension] ?? "application/octet-stream");
    const request: UploadRequest = { file: { uri, name: filename, type: mimeType }, filename, mimeType };
    if (isString(value.kind)) request.preferredKind = value.kind;
    return { type: "upload", request };
  }
  throw unsupported();
}

function unsupported(): UnsupportedAttachmentException {
  return new UnsupportedAttachmentException("Unsupported attachment: expected an uploaded descriptor, an upload request or {fileUri}");
}

/** True when the upload goes to the image endpoint. */
export function isImageUpload(request: Pick<UploadRequest, "mimeType" | "preferredKind">): boolean {
  return request.preferredKind === "image" || request.mimeType.toLowerCase().startsWith("image/");
}
