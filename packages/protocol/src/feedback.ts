import Type, { type Static } from "typebox";
import { MAX_SAFE_INTEGER, PlatformSchema } from "./common.js";
import { CustomFieldValuesBodySchema } from "./custom-fields.js";
import { MAX_ATTACHMENTS } from "./uploads.js";

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

