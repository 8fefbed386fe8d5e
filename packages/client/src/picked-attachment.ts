import { normalizePickedAttachment, type UploadFile, type UploadRequest } from "./attachments.js";
import { AttachmentTooLargeError, type ComposerAttachment } from "./feedback-composer-attachment.js";
import type { PublicAppConfig } from "./public-config.js";

/** The address a picked upload names, if any (see {@link ComposerAttachment.uri}). */
function uploadUri(file: UploadFile): string | undefined {
  if (typeof file === "string") return file === "" ? undefined : file;
  if (typeof file === "object" && "uri" in file && typeof file.uri === "string" && file.uri !== "") return file.uri;
  return undefined;
}

const isBlob = (file: UploadFile): file is Blob => typeof Blob !== "undefined" && file instanceof Blob;

/**
 * The draft row of a picked value, and the upload to start for it (none: the row is final). A
 * descriptor is ready as is; an upload request is `uploading`, unless its bytes are over the
 * config's `maxAttachmentBytes` (an {@link AttachmentTooLargeError} row); anything else is a row
 * with the error normalizing it threw.
 */
export function pickedAttachment(
  id: string,
  picked: unknown,
  config: Partial<Pick<PublicAppConfig, "maxAttachmentBytes">> | null | undefined,
): { row: ComposerAttachment; upload?: UploadRequest } {
  let normalized: ReturnType<typeof normalizePickedAttachment>;
  try {
    normalized = normalizePickedAttachment(picked);
  } catch (error) {
    return { row: { id, name: "?", mimeType: undefined, size: undefined, status: "error", error } };
  }
  if (normalized.type === "descriptor") {
    const descriptor = normalized.descriptor;
    const row: ComposerAttachment = { id, name: descriptor.filename ?? descriptor.key, mimeType: descriptor.mimeType, size: descriptor.size, status: "ready", descriptor };
    if (descriptor.url) row.uri = descriptor.url;
    return { row };
  }
  const { request } = normalized;
  const file = isBlob(request.file) ? request.file : undefined;
  const row: ComposerAttachment = { id, name: request.filename, mimeType: request.mimeType, size: file?.size, status: "uploading" };
  if (file !== undefined) row.file = file;
  const uri = uploadUri(request.file);
  if (uri !== undefined) row.uri = uri;
  const limit = config?.maxAttachmentBytes;
  if (row.size !== undefined && typeof limit === "number" && limit > 0 && row.size > limit) {
    return { row: { ...row, status: "error", error: new AttachmentTooLargeError(request.filename, row.size, limit) } };
  }
  return { row, upload: request };
}
