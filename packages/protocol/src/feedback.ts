import Type, { type Static } from "typebox";
import { MAX_LIST_OFFSET, MAX_SAFE_INTEGER, PageOffset, PlatformSchema, StringEnum, Timestamp } from "./common.js";
import { CustomFieldValuesBodySchema, RecordFieldSchema } from "./custom-fields.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

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

/** A legacy attachment descriptor as SDKs send it back; it must name an upload of the same app. */
export const AttachmentRefSchema = Type.Object({
  kind: Type.Optional(Type.String({ maxLength: 32 })),
  key: Type.Optional(Type.String({ maxLength: 300 })),
  id: Type.Optional(Type.String({ maxLength: 300 })),
  uploadId: Type.Optional(Type.String({ maxLength: 300 })),
  url: Type.Optional(Type.String({ maxLength: 4096 })),
  filename: Type.Optional(Type.String({ maxLength: 1024 })),
  mimeType: Type.Optional(Type.String({ maxLength: 255 })),
  size: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_SAFE_INTEGER })),
});

/**
 * `POST /api/v1/feedback` body (wire-contract §2.9): `details` ≡ `description`,
 * `verificationToken` ≡ `turnstileToken`; attachments as `attachments[]` and/or `uploadIds[]`.
 */
export const FeedbackBodySchema = Type.Object({
  appKey: Type.Optional(Type.String({ maxLength: 128 })),
  /** The feature request the reporter picked (a visible request of the app): the feedback is linked to it. */
  featureRequestId: Type.Optional(Type.String({ maxLength: 64 })),
  title: Type.String({ maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 20_000 })),
  details: Type.Optional(Type.String({ maxLength: 20_000 })),
  reporterName: Type.Optional(Type.String({ maxLength: 200 })),
  reporterEmail: Type.Optional(Type.String({ maxLength: 320 })),
  platform: Type.Optional(PlatformSchema),
  appVersion: Type.Optional(Type.String({ maxLength: 64 })),
  buildNumber: Type.Optional(Type.String({ maxLength: 64 })),
  metadata: Type.Optional(Type.Unknown({ description: "Free-form; sanitised, never rejected" })),
  attachments: Type.Optional(Type.Array(AttachmentRefSchema, { maxItems: MAX_ATTACHMENTS })),
  uploadIds: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_ATTACHMENTS })),
  verificationToken: Type.Optional(Type.String({ maxLength: 8192 })),
  turnstileToken: Type.Optional(Type.String({ maxLength: 8192 })),
  userToken: Type.Optional(Type.String({ maxLength: 256 })),
  /** Values of the app's custom fields for feedback, by key. */
  fields: Type.Optional(CustomFieldValuesBodySchema),
});
export type FeedbackBody = Static<typeof FeedbackBodySchema>;

/** `POST /api/v1/feedback` answer. */
export const FeedbackResultSchema = Type.Object({
  submissionId: Type.String(),
  forwardedToGithub: Type.Boolean(),
});

export const TRIAGE_STATUSES = ["open", "in_progress", "resolved", "archived"] as const;
export type TriageStatus = (typeof TRIAGE_STATUSES)[number];
export const TriageStatusSchema = StringEnum(TRIAGE_STATUSES);
export const PRIORITIES = ["!", "!!", "!!!"] as const;
export const PrioritySchema = Type.Union([StringEnum(PRIORITIES), Type.Null()]);

/** A submission row of the console inbox (wire-contract §11.4 SubmissionRecord, plus the note). */
export const SubmissionRecordSchema = Type.Object({
  submissionId: Type.String(),
  appId: Type.String(),
  appKey: Type.String(),
  appName: Type.String(),
  workspaceSlug: Type.String(),
  title: Type.String(),
  description: Type.String(),
  reporterName: NullableString,
  reporterEmail: NullableString,
  platform: Type.String(),
  appVersion: NullableString,
  buildNumber: NullableString,
  priority: NullableString,
  /** Delivery status; always `received` (no forwarding). */
  status: Type.String(),
  triageStatus: TriageStatusSchema,
  assignedTo: NullableString,
  internalNote: NullableString,
  attachmentCount: Type.Integer(),
  firstTriagedAt: Type.Union([Timestamp, Type.Null()]),
  resolvedAt: Type.Union([Timestamp, Type.Null()]),
  /** Its custom field values, in the fields' order (archived fields last). */
  fields: Type.Array(RecordFieldSchema),
  /** The feature request it is evidence for (linked in the console, or picked by the reporter), or null. */
  featureRequest: Type.Union([Type.Object({ featureRequestId: Type.String(), title: Type.String(), linkedAt: Timestamp }), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type SubmissionRecord = Static<typeof SubmissionRecordSchema>;

/** `GET W/submissions` query; snake_case spellings of the production console are accepted too. */
export const SubmissionListQuerySchema = Type.Object({
  appId: Type.Optional(Type.String()),
  app_id: Type.Optional(Type.String()),
  triageStatus: Type.Optional(StringEnum([...TRIAGE_STATUSES, "active"])),
  triage_status: Type.Optional(StringEnum([...TRIAGE_STATUSES, "active"])),
  platform: Type.Optional(PlatformSchema),
  priority: Type.Optional(StringEnum(PRIORITIES)),
  assignedTo: Type.Optional(Type.String()),
  assigned_to: Type.Optional(Type.String()),
  q: Type.Optional(Type.String({ maxLength: 100 })),
  from: Type.Optional(Type.String({ format: "date-time" })),
  to: Type.Optional(Type.String({ format: "date-time" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(PageOffset(MAX_LIST_OFFSET)),
});

export const SubmissionListSchema = Type.Object({ submissions: Type.Array(SubmissionRecordSchema), total: Type.Integer() });

/** `GET W/submissions/{id}` answer. */
export const SubmissionDetailSchema = Type.Object({
  submission: SubmissionRecordSchema,
  app: Type.Object({ appId: Type.String(), appKey: Type.String(), name: Type.String() }),
  metadata: Type.Array(Type.Object({ key: Type.String(), value: Type.Unknown(), redacted: Type.Boolean(), truncated: Type.Boolean() })),
  attachments: Type.Array(
    Type.Object({
      attachmentId: Type.String(),
      uploadId: Type.String(),
      kind: Type.String(),
      filename: Type.String(),
      mimeType: Type.String(),
      sizeBytes: Type.Integer(),
      sha256: Type.String(),
      url: Type.String({ description: "Signed download link, valid for an hour" }),
      createdAt: Timestamp,
    }),
  ),
});

export const TriageBodySchema = Type.Object({ triageStatus: TriageStatusSchema });
export const PriorityBodySchema = Type.Object({ priority: PrioritySchema });
export const AssignBodySchema = Type.Object({ assignedTo: NullableString });
export const NoteBodySchema = Type.Object({ internalNote: Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()]) });
export const BulkTriageBodySchema = Type.Object({
  submissionIds: Type.Array(Type.String(), { minItems: 1, maxItems: 50 }),
  triageStatus: Type.Optional(TriageStatusSchema),
  assignedTo: Type.Optional(NullableString),
});
export const BulkTriageResultSchema = Type.Object({ updatedCount: Type.Integer(), updatedIds: Type.Array(Type.String()) });

/** `PUT W/submissions/:id/feature-request`: link the feedback to a request of its app. */
export const LinkFeedbackBodySchema = Type.Object({ featureRequestId: Type.String({ maxLength: 64 }) });

/** `POST W/submissions/:id/feature-request`: turn the feedback into a new request (title and description default to the feedback's). */
export const FeedbackToRequestBodySchema = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  description: Type.Optional(Type.String({ maxLength: 20_000 })),
  boardId: Type.Optional(Type.String({ maxLength: 64 })),
  columnId: Type.Optional(Type.String({ maxLength: 64 })),
  columnSlug: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
