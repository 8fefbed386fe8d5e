import Type, { type Static } from "typebox";
import { MAX_LIST_OFFSET, PageOffset, PlatformSchema, StringEnum, Timestamp } from "./common.js";
import { RecordFieldSchema } from "./custom-fields.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

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
