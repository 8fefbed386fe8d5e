import Type, { type Static } from "typebox";
import { MAX_SAFE_INTEGER, StringEnum, Timestamp } from "./common.js";

/** At most this many attachments per feedback submission (and files per upload session). */
export const MAX_ATTACHMENTS = 8;

/**
 * What every upload answer carries: the legacy multipart fields (`kind`, `key`, `url`) and the
 * upload-session fields (`uploadId`, `status`, `sha256`) together (wire-contract §12.2). `url` is
 * a signed download link that expires after an hour.
 */
export const UploadDescriptorSchema = Type.Object({
  kind: Type.String({ description: "`image`, `object`, or `r2` on the legacy alias" }),
  key: Type.String(),
  id: Type.String(),
  uploadId: Type.String(),
  url: Type.String(),
  downloadUrl: Type.String(),
  filename: Type.String(),
  mimeType: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  sizeBytes: Type.Integer(),
  sha256: Type.String(),
  status: Type.Literal("uploaded"),
  stored: Type.Literal(true),
});
export type UploadDescriptor = Static<typeof UploadDescriptorSchema>;

/** Purposes of an upload session. */
export const UPLOAD_PURPOSES = ["feedback_attachment", "branding"] as const;

/** `POST /api/v1/uploads/sessions` body; `mimeType|contentType` and `size|sizeBytes` are synonyms. */
export const UploadSessionBodySchema = Type.Object({
  appKey: Type.Optional(Type.String({ maxLength: 128 })),
  files: Type.Array(
    Type.Object({
      clientFileId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      filename: Type.String({ minLength: 1, maxLength: 1024 }),
      mimeType: Type.Optional(Type.String({ maxLength: 255 })),
      contentType: Type.Optional(Type.String({ maxLength: 255 })),
      size: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SAFE_INTEGER })),
      sizeBytes: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SAFE_INTEGER })),
    }),
    { minItems: 1, maxItems: MAX_ATTACHMENTS },
  ),
  purpose: Type.Optional(StringEnum(UPLOAD_PURPOSES)),
  turnstileToken: Type.Optional(Type.String({ maxLength: 8192 })),
  verificationToken: Type.Optional(Type.String({ maxLength: 8192 })),
});
export type UploadSessionBody = Static<typeof UploadSessionBodySchema>;

const SessionSlotSchema = Type.Object({
  clientFileId: Type.String(),
  uploadId: Type.String(),
  uploadUrl: Type.String({ description: "Relative path to PUT the bytes to" }),
  filename: Type.String(),
  mimeType: Type.String(),
  maxBytes: Type.Integer(),
  maxSizeBytes: Type.Integer(),
});

/** `POST /api/v1/uploads/sessions` answer: both documented shapes at once (wire-contract §3.2). */
export const UploadSessionResultSchema = Type.Object({
  sessionId: Type.String(),
  sessionToken: Type.String(),
  expiresAt: Timestamp,
  uploads: Type.Array(SessionSlotSchema),
  session: Type.Object({
    sessionId: Type.String(),
    sessionToken: Type.String(),
    expiresAt: Timestamp,
    maxFileSizeBytes: Type.Integer(),
    maxFiles: Type.Integer(),
  }),
  files: Type.Array(SessionSlotSchema),
});
export type UploadSessionResult = Static<typeof UploadSessionResultSchema>;
