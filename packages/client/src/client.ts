import type { AltchaChallenge } from "./altcha.js";
import { getConfig } from "./app-config.js";
import type { AttachmentDescriptor, UploadRequest } from "./attachments.js";
import { listBoards } from "./boards.js";
import type { CallOptions, IdempotentCallOptions, UserCallOptions, UserPostOptions } from "./call-options.js";
import { getChangelog, prepareChangelogOverlay, subscribeToChangelog, unsubscribeFromChangelog, type ChangelogOverlayData } from "./changelog.js";
import { DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS, type FeedbackClientOptions, type TokenTransport } from "./client-options.js";
import { listComments, postComment, type CommentDraft } from "./comments.js";
import { listCustomFields } from "./custom-fields.js";
import {
  findSimilarFeatureRequests,
  follow,
  getFeatureRequest,
  listFeatureRequests,
  submitFeatureRequest,
  vote,
  type FeatureRequestDraft,
  type ListFeatureRequestsParams,
} from "./feature-requests.js";
import { submitFeedback, type FeedbackDraft } from "./feedback.js";
import { detectRuntimePlatform, type Platform } from "./platform.js";
import { roadmapList } from "./roadmap-lists.js";
import { SeenChangelogStore } from "./seen-changelogs.js";
import { ClientSession } from "./session.js";
import type { UserAttributes } from "./signing.js";
import { defaultWarn, memoryStorage, type Warn } from "./storage.js";
import { systemTimers, type Timers } from "./timers.js";
import { UserTokenStore } from "./token-store.js";
import type {
  AppVersion,
  Board,
  BoardColumn,
  ChangelogPage,
  Comment,
  CommentPage,
  CustomField,
  FeatureRequestItem,
  FeatureRequestPage,
  FeedbackResult,
  FollowResult,
  ProposeResult,
  PublicAppConfig,
  UserProfile,
  VoteResult,
} from "./types.js";
import { uploadAttachment } from "./upload.js";
import { getUserProfile, reportUserAttributes, type UserProfileCallOptions } from "./users.js";
import { createVerificationToken, getVerificationChallenge } from "./verification.js";

/**
 * The Tidings API client: one method per public endpoint, each taking `{signal, timeoutMs}`.
 * Runs unchanged in browsers, React Native and Node ≥ 20.
 *
 * @example
 * ```ts
 * const client = new FeedbackClient({ baseUrl: "https://feedback.example.com", appKey: "app_demo" });
 * const page = await client.listFeatureRequests({ q: "dark mode" });
 * ```
 */
export class FeedbackClient {
  readonly baseUrl: string;
  readonly appKey: string;
  readonly defaultPlatform: Platform;
  readonly timeoutMs: number;
  readonly uploadTimeoutMs: number;
  readonly tokenTransport: TokenTransport;
  /** The end-user token store (anonymous UUID, `setToken` after login, `resetToken` on logout). */
  readonly tokens: UserTokenStore;
  /** Seen changelog releases, in the same storage as the token. */
  readonly seenChangelogs: SeenChangelogStore;
  readonly timers: Timers;
  /** Where this client's development warnings go (the `warn` option); the UI packages use it too. */
  readonly warn: Warn;
  /** What the endpoints share: identity, the request path, the verification last read. */
  private readonly session: ClientSession;

  constructor(options: FeedbackClientOptions) {
    if (typeof options.baseUrl !== "string" || options.baseUrl.trim() === "") throw new TypeError("baseUrl is required");
    if (typeof options.appKey !== "string" || options.appKey.trim() === "") throw new TypeError("appKey is required");
    const fetchImpl = options.fetch ?? (globalThis.fetch === undefined ? undefined : (input: string, init: RequestInit) => globalThis.fetch(input, init));
    if (fetchImpl === undefined) throw new TypeError("No fetch in this runtime: pass options.fetch");
    this.baseUrl = options.baseUrl.trim().replace(/\/+$/, "");
    this.appKey = options.appKey.trim();
    this.defaultPlatform = options.defaultPlatform ?? detectRuntimePlatform();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.uploadTimeoutMs = options.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
    this.tokenTransport = options.tokenTransport ?? "header";
    this.timers = options.timers ?? systemTimers;
    this.warn = options.warn ?? defaultWarn;
    // Without storage the token store gives the one warning, which covers seen-tracking too.
    this.tokens = options.tokenStore ?? new UserTokenStore({ storage: options.storage, warn: this.warn });
    this.seenChangelogs = new SeenChangelogStore(options.storage ?? memoryStorage());
    this.session = new ClientSession(this, options, fetchImpl);
  }

  /**
   * Replaces the SSO token (after your backend re-signed it, or on sign-in); `null` signs the
   * user out of SSO, `undefined` goes back to the `ssoToken` option.
   *
   * @example
   * ```ts
   * client.setSsoToken(await fetch("/tidings-token").then((r) => r.text()));
   * ```
   */
  setSsoToken(token: string | null | undefined): void {
    this.session.identity.setSsoToken(token);
  }

  /** The token calls use: per call, else the explicit option, else the store's (awaited). */
  getUserToken(override?: string): Promise<string> {
    return this.session.identity.userToken(override);
  }

  /** `GET /public/config/<APP_KEY>`. Unknown and private apps: {@link UnexpectedStatusException} 404. */
  getConfig(options: CallOptions = {}): Promise<PublicAppConfig> {
    return getConfig(this.session, options);
  }

  /**
   * `GET /public/apps/<APP_KEY>/verification/challenge`: a fresh, single-use altcha challenge;
   * `solver: "js"` asks for the lighter one meant for runtimes without Web Crypto.
   */
  getVerificationChallenge(options: CallOptions & { solver?: "js" | undefined } = {}): Promise<AltchaChallenge> {
    return getVerificationChallenge(this.session, options);
  }

  /**
   * The built-in verification provider: fetches a challenge, solves it (with Web Crypto, or in
   * plain JavaScript on runtimes without it, which get the lighter `solver=js` challenge) and
   * returns the single-use token for one intake submission. Used automatically when the app
   * requires `altcha` and no `verificationTokenProvider` is set; `signal` also stops the solving.
   */
  createVerificationToken(options: CallOptions = {}): Promise<string> {
    return createVerificationToken(this.session, options);
  }

  /** `GET /public/columns/<APP_KEY>`, sorted by position (hidden columns included). */
  getColumns(options: UserCallOptions = {}): Promise<BoardColumn[]> {
    return roadmapList<BoardColumn>(this.session, "columns", options);
  }

  /** `GET /public/versions/<APP_KEY>`, sorted by position. */
  getVersions(options: UserCallOptions = {}): Promise<AppVersion[]> {
    return roadmapList<AppVersion>(this.session, "versions", options);
  }

  /**
   * `GET /public/apps/<APP_KEY>/boards`: the app's boards the user may see, by position (private
   * ones only for a user the host vouches for with `userHash` or an SSO token, when the board's
   * rule admits them). Pass a board's `slug` as `board` to the listing and to proposals.
   *
   * @example
   * ```ts
   * const boards = await client.listBoards(); // [{ slug: "feature-requests", isDefault: true, … }, { slug: "bugs", … }]
   * const bugs = await client.listFeatureRequests({ board: "bugs" });
   * ```
   */
  listBoards(options: UserCallOptions = {}): Promise<Board[]> {
    return listBoards(this.session, options);
  }

  /**
   * `GET /public/apps/<APP_KEY>/fields`: the custom fields the team asks for, by position: the
   * app-wide ones and those of `board` (a slug; default: the board proposals go to). Each names
   * the forms that ask for it in `appliesTo`; check values with `checkCustomFieldValues` and send
   * them as `fields`. A board the user may not see is `400 unknown_board`.
   *
   * @example
   * ```ts
   * const fields = (await client.listCustomFields()).filter((f) => f.appliesTo.includes("feedback"));
   * ```
   */
  listCustomFields(options: UserCallOptions & { board?: string | undefined } = {}): Promise<CustomField[]> {
    return listCustomFields(this.session, options);
  }

  /** `GET /feature-requests`: a page, personalised by the user token sent per `tokenTransport`. */
  listFeatureRequests(params: ListFeatureRequestsParams = {}): Promise<FeatureRequestPage> {
    return listFeatureRequests(this.session, params);
  }

  /**
   * `GET /feature-requests/<id>`: one request in the listing's shape, with the user's `hasVoted`
   * (their own request waiting for review included). `FeatureRequestNotFoundException` when the
   * listing would not show it.
   */
  getFeatureRequest(id: string, options: UserCallOptions = {}): Promise<FeatureRequestItem> {
    return getFeatureRequest(this.session, id, options);
  }

  /**
   * `GET /feature-requests/similar`: public requests like a title being typed, most similar first,
   * for a compose sheet to offer a vote instead of a duplicate. Spends the search budget (30 per
   * minute per IP): pace calls, e.g. with a `SearchPacer`. A blank title answers `[]` unasked.
   */
  findSimilarFeatureRequests(title: string, options: UserCallOptions & { limit?: number | undefined } = {}): Promise<FeatureRequestItem[]> {
    return findSimilarFeatureRequests(this.session, title, options);
  }

  /** `POST /feature-requests`: proposes a request (human verification, quota and subscription apply). */
  submitFeatureRequest(draft: FeatureRequestDraft, options: UserPostOptions = {}): Promise<ProposeResult> {
    return submitFeatureRequest(this.session, draft, options);
  }

  /** `POST /feature-requests/<id>/vote`: toggles the user's vote. */
  toggleVote(id: string, options: UserPostOptions & { shipNotifyEmail?: string | undefined } = {}): Promise<VoteResult> {
    return vote(this.session, "POST", id, options);
  }

  /** `DELETE /feature-requests/<id>/vote`: removes the user's vote (idempotent). */
  removeVote(id: string, options: UserCallOptions = {}): Promise<VoteResult> {
    return vote(this.session, "DELETE", id, options);
  }

  /**
   * `POST /feature-requests/<id>/subscription`: mail the user when the request moves, the team
   * replies or it ships (at most one mail an hour). An SSO user with an email follows at once;
   * an `email` nobody vouched for is sent a confirmation first (`pending: true`).
   *
   * @example
   * ```ts
   * await client.followFeatureRequest("fr_…", { email: "ada@example.com" }); // { following: false, pending: true }
   * ```
   */
  followFeatureRequest(id: string, options: UserPostOptions & { email?: string | undefined } = {}): Promise<FollowResult> {
    return follow(this.session, "POST", id, options);
  }

  /** `DELETE /feature-requests/<id>/subscription`: stops following (idempotent). */
  unfollowFeatureRequest(id: string, options: UserCallOptions & { email?: string | undefined } = {}): Promise<FollowResult> {
    return follow(this.session, "DELETE", id, options);
  }

  /** `GET /feature-requests/<id>/comments`, oldest first. */
  listComments(id: string, options: UserCallOptions & { limit?: number | undefined; cursor?: string | undefined } = {}): Promise<CommentPage> {
    return listComments(this.session, id, options);
  }

  /** `POST /feature-requests/<id>/comments`: a comment, or a reply with `parentId`. */
  postComment(id: string, draft: CommentDraft, options: UserPostOptions = {}): Promise<Comment> {
    return postComment(this.session, id, draft, options);
  }

  /**
   * `POST /feedback`. Sends the draft's platform or the default one without checking the
   * allowlist (composers use {@link resolveSubmissionPlatform}); uploads pending attachments first
   * (an `idempotencyKey` covers the feedback itself, not those uploads: upload first, then retry
   * with descriptors, to make the whole submission safe to repeat).
   */
  submitFeedback(draft: FeedbackDraft, options: UserPostOptions = {}): Promise<FeedbackResult> {
    return submitFeedback(this.session, draft, options);
  }

  /**
   * Uploads a file as multipart `appKey` + `file`: images (by mime type or `preferredKind:
   * "image"`) to `/uploads/images`, others to `/uploads/objects`, within `uploadTimeoutMs`.
   */
  uploadAttachment(request: UploadRequest, options: { userToken?: string | undefined } & IdempotentCallOptions = {}): Promise<AttachmentDescriptor> {
    return uploadAttachment(this.session, request, options);
  }

  /** `GET /public/apps/<APP_KEY>/changelog`, newest first. */
  getChangelog(options: UserCallOptions & { limit?: number | undefined; cursor?: string | undefined } = {}): Promise<ChangelogPage> {
    return getChangelog(this.session, options);
  }

  /** `POST /public/apps/<APP_KEY>/changelog/subscribe` (double opt-in: the address gets a confirmation mail). */
  subscribeToChangelog(email: string, options: UserPostOptions = {}): Promise<{ subscribed: boolean }> {
    return subscribeToChangelog(this.session, email, options);
  }

  /** `POST /public/apps/<APP_KEY>/changelog/unsubscribe` with the address, or `{token}` from an email link. */
  unsubscribeFromChangelog(emailOrToken: string | { token: string }, options: CallOptions & IdempotentCallOptions = {}): Promise<{ unsubscribed: boolean }> {
    return unsubscribeFromChangelog(this.session, emailOrToken, options);
  }

  /**
   * `PUT /public/apps/<APP_KEY>/user`: reports paying status, plan, MRR, currency and the user's
   * company, signed with `sdkSigningSecret` (HMAC-SHA256, `cpt-user-attrs-v1`, or `-v2` with a
   * company) when one is configured. Keep that secret on a backend: a company is only accepted signed.
   *
   * @example
   * ```ts
   * await client.reportUserAttributes({ isPaying: true, company: { id: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "EUR" } });
   * ```
   */
  reportUserAttributes(attributes: UserAttributes, options: UserCallOptions = {}): Promise<{ ok: boolean; updatedAt?: string }> {
    return reportUserAttributes(this.session, attributes, options);
  }

  /**
   * `GET /users/<user_id>/profile`. The client's app key goes along, so the server answers only
   * for users of this app; `withAppKey: false` asks without it, as the mobile SDKs do, for a
   * `u_…` id of any public app (servers before this option needed the key for `u_…` ids).
   *
   * @example
   * ```ts
   * const { profile, recentComments } = await client.getUserProfile("u_9f2c…", { withAppKey: false });
   * ```
   */
  getUserProfile(userId: string, options: UserProfileCallOptions = {}): Promise<UserProfile> {
    return getUserProfile(this.session, userId, options);
  }

  /**
   * Rule 8: fetches the config and the changelog; null when the changelog flag is off, there is
   * nothing, or (with `onlyIfUnseen`) the newest release is already seen.
   */
  prepareChangelogOverlay(options: CallOptions & { onlyIfUnseen?: boolean } = {}): Promise<ChangelogOverlayData | null> {
    return prepareChangelogOverlay(this.session, options);
  }
}
