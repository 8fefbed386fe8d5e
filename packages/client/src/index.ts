export { FeedbackClient } from "./client.js";
export { DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS, type FeedbackClientOptions, type TokenTransport, type VerificationTokenProvider } from "./client-options.js";
export type { CallOptions, UserCallOptions, IdempotentCallOptions, UserPostOptions } from "./call-options.js";
export { CLIENT_VERSION, type FeedbackDraft } from "./feedback.js";
export type { ListFeatureRequestsParams, FeatureRequestDraft } from "./feature-requests.js";
export type { CommentDraft } from "./comments.js";
export { checkCustomFieldValues, customFieldErrors, type CustomFieldCheck, type CustomFieldInput, type CustomFieldProblem } from "./custom-fields.js";
export type { ChangelogOverlayData } from "./changelog.js";
export type { UserProfileCallOptions } from "./users.js";
export * from "./errors.js";
export * from "./error-responses.js";
export { KNOWN_ERROR_CODES, VENDOR_VERIFICATION_CODES, type KnownErrorCode } from "./error-codes.js";
export * from "./attachments.js";
export * from "./platform.js";
export * from "./types.js";
export type { MarkdownAlign, MarkdownBlock, MarkdownInline, MarkdownListItem } from "./markdown-blocks.js";
export { safeHref, safeImageSrc } from "./safe-href.js";
export { UserTokenStore, USER_TOKEN_KEY, type UserTokenStoreOptions } from "./token-store.js";
export { SeenChangelogStore, SEEN_CHANGELOGS_KEY } from "./seen-changelogs.js";
export { memoryStorage, type StorageAdapter, type Warn } from "./storage.js";
export { systemTimers, type Timers } from "./timers.js";
export { uuidV4 } from "./uuid.js";
export * from "./signing.js";
export { createTransport, type FetchLike, type HttpRequest, type HttpResponse, type Transport } from "./request.js";
export { isSurfaceEnabled, type Surface } from "./feature-flags.js";
export { groupRoadmapRequests, ROADMAP_OTHER_COLUMN_ID, type RoadmapGroup } from "./roadmap.js";
export * from "./search-pacer.js";
export * from "./config-loader.js";
export * from "./locale.js";
export * from "./messages.js";
export { solveAltchaChallenge, encodeAltchaToken, hasWebCrypto, type AltchaChallenge, type AltchaSolution, type SolveAltchaOptions } from "./altcha.js";
export { FeatureRequestListController, MAX_TAG_FILTERS, type FeatureRequestListState, type FeatureRequestListOptions, type FeatureRequestListSettings } from "./feature-request-list.js";
export {
  AttachmentTooLargeError,
  FeedbackComposerController,
  type ComposerAttachment,
  type ComposerDraft,
  type ComposerSubmitFields,
  type FeedbackComposerOptions,
  type FeedbackComposerSettings,
  type FeedbackComposerState,
} from "./feedback-composer.js";
// The outbox's code is its own entry, `@tidings/client/outbox`, so an app that keeps no outbox does
// not carry it (Metro bundles every module an entry reaches); its types are here as well.
export type { Outbox, OutboxClient, OutboxEvent, OutboxFullError, OutboxOptions, OutboxSubmission } from "./outbox.js";
export type { OutboxAttemptError, OutboxEntry, OutboxKind, QueuedFeatureRequest, QueuedFeedback } from "./outbox-entry.js";
export { parsePortalPath, portalPath, portalSlug, type PortalRoute } from "./portal-paths.js";
