import type { UploadSessionBody } from "@tidings/protocol";
import { ApiError } from "../http/errors.js";
import { refuseExecutableName } from "./executables.js";
import { sanitizeFilename } from "./filenames.js";
import { claimedImageType, type ImageType } from "./image-types.js";
import { objectMimeType } from "./object-types.js";
import { newStorageKey, newUploadId, type UploadKind, type UploadRow } from "./uploads.js";

/** MIME types never stored, whatever the file name says. */
const REFUSED_TYPES = new Set([
  "image/svg+xml",
  "text/html",
  "application/xhtml+xml",
  "text/javascript",
  "application/javascript",
  "application/x-msdownload",
  "application/vnd.microsoft.portable-executable",
  "application/x-executable",
  "application/x-sh",
  "application/x-mach-binary",
  "application/vnd.android.package-archive",
  "application/java-archive",
]);

/** What the slots of one session share. */
export interface SlotSession {
  sessionId: string;
  appId: string;
  maxAttachmentBytes: number;
  uploaderTokenHash: string;
  purpose: UploadSessionBody["purpose"];
  now: string;
}

/**
 * The pending slot of the `index`th file a session declares: a safe name, a type that is neither
 * executable nor script (an image, or any file of a branding session, must be PNG, JPEG, WebP,
 * GIF or HEIC) and a declared size within the app's limit. Throws the ApiError that refuses it.
 */
export function plannedSlot(file: UploadSessionBody["files"][number], index: number, session: SlotSession): UploadRow {
  const filename = sanitizeFilename(file.filename);
  refuseExecutableName(filename);
  const declared = (file.mimeType ?? file.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const size = file.size ?? file.sizeBytes;
  if (REFUSED_TYPES.has(declared)) throw new ApiError("unsupported_mime_type", { message: `Files of type ${declared} cannot be uploaded` });
  let kind: UploadKind = "object";
  let mimeType = objectMimeType(declared);
  if (declared.startsWith("image/") || session.purpose === "branding") {
    let claimed: ImageType | undefined;
    try {
      claimed = claimedImageType(declared, filename);
    } catch {
      claimed = undefined;
    }
    if (claimed === undefined) throw new ApiError("unsupported_mime_type", { message: "Images must be PNG, JPEG, WebP, GIF or HEIC" });
    kind = "image";
    mimeType = claimed;
  }
  if (size !== undefined && size > session.maxAttachmentBytes) throw new ApiError("file_too_large");
  const id = newUploadId();
  return {
    id,
    appId: session.appId,
    sessionId: session.sessionId,
    submissionId: null,
    kind,
    status: "pending",
    storageKey: newStorageKey(id),
    clientFileId: file.clientFileId ?? `file-${index + 1}`,
    filename,
    mimeType,
    maxBytes: session.maxAttachmentBytes,
    size: null,
    sha256: null,
    uploaderTokenHash: session.uploaderTokenHash,
    createdAt: session.now,
    uploadedAt: null,
    attachedAt: null,
  };
}
