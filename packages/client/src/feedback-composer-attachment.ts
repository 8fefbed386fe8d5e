import type { AttachmentDescriptor } from "./attachments.js";

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
