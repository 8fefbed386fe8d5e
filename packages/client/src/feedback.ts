import { normalizePickedAttachment, type AttachmentDescriptor, type PickedAttachment } from "./attachments.js";
import { compact, nonBlank } from "./blank.js";
import type { UserPostOptions } from "./call-options.js";
import type { Platform } from "./platform.js";
import type { ClientSession } from "./session.js";
import { someFields } from "./custom-fields.js";
import type { CustomFieldValues, FeedbackResult } from "./types.js";
import { uploadAttachment } from "./upload.js";
import { postIntake } from "./verification.js";

/** SDK version, sent in feedback metadata. */
export const CLIENT_VERSION = "0.1.0";

/** A feedback submission. */
export interface FeedbackDraft {
  title: string;
  details: string;
  /** @default the client's `defaultPlatform` */
  platform?: Platform | undefined;
  /** Uploaded descriptors are sent as is; uploads and legacy picks are uploaded first. */
  attachments?: PickedAttachment[] | undefined;
  reporterName?: string | undefined;
  reporterEmail?: string | undefined;
  appVersion?: string | undefined;
  buildNumber?: string | undefined;
  metadata?: Record<string, string> | undefined;
  /** Values of the custom fields the feedback form asks for, by key (see `listCustomFields`). */
  fields?: CustomFieldValues | undefined;
  /**
   * When the user submitted (ISO 8601), sent as `metadata.submittedAt`. Keep it when retrying
   * under the same idempotency key, so the body stays the same. @default now
   */
  submittedAt?: string | undefined;
  /** Wins over `verificationTokenProvider`. */
  verificationToken?: string | undefined;
  /**
   * The feature request the user picked (an approved request of the app they can see): the
   * feedback is linked to it, and a signed-in user counts as its voter. Anything else is refused
   * with `feature_request_not_linkable`.
   */
  featureRequestId?: string | undefined;
}

/** `POST /feedback`, after uploading the draft's pending attachments, through the intake's verification. */
export async function submitFeedback(s: ClientSession, draft: FeedbackDraft, options: UserPostOptions): Promise<FeedbackResult> {
  const token = await s.identity.userToken(options.userToken);
  const attachments: AttachmentDescriptor[] = [];
  for (const picked of draft.attachments ?? []) {
    const normalized = normalizePickedAttachment(picked);
    attachments.push(
      normalized.type === "descriptor"
        ? normalized.descriptor
        : await uploadAttachment(s, { ...normalized.request, signal: normalized.request.signal ?? options.signal }, { userToken: token }),
    );
  }
  const platform = draft.platform ?? s.client.defaultPlatform;
  const body = compact({
    appKey: s.client.appKey,
    title: draft.title.trim(),
    description: draft.details.trim(),
    platform,
    reporterName: nonBlank(draft.reporterName?.trim()),
    reporterEmail: nonBlank(draft.reporterEmail?.trim()),
    appVersion: draft.appVersion,
    buildNumber: draft.buildNumber,
    featureRequestId: nonBlank(draft.featureRequestId?.trim()),
    // SDK keys override the host's.
    metadata: {
      ...draft.metadata,
      sdk: `tidings-client/${CLIENT_VERSION}`,
      platform,
      submittedAt: nonBlank(draft.submittedAt) ?? new Date(s.client.timers.now()).toISOString(),
    },
    attachments,
    fields: someFields(draft.fields),
  });
  return postIntake<FeedbackResult>(s, "/api/v1/feedback", body, draft.verificationToken, await s.identity.userHeaders(token), options);
}
