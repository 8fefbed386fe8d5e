import {
  isImageUpload,
  normalizePickedAttachment,
  type AttachmentDescriptor,
  type PickedAttachment,
  type UploadRequest,
} from "./attachments.js";
import { encodeAltchaToken, hasWebCrypto, solveAltchaChallenge, type AltchaChallenge } from "./altcha.js";
import {
  InvalidResponseException,
  isAbortError,
  NetworkException,
  RequestTimeoutException,
  VerificationRequiredException,
} from "./errors.js";
import { detectRuntimePlatform, type Platform } from "./platform.js";
import { createTransport, type FetchLike, type HttpRequest, type Transport } from "./request.js";
import { SeenChangelogStore } from "./seen-changelogs.js";
import { signUserAttributes, type UserAttributes } from "./signing.js";
import { defaultWarn, memoryStorage, type StorageAdapter, type Warn } from "./storage.js";
import { systemTimers, type Timers } from "./timers.js";
import { UserTokenStore } from "./token-store.js";
import type {
  AppVersion,
  BoardColumn,
  ChangelogEntry,
  ChangelogPage,
  Comment,
  CommentPage,
  FeatureRequestItem,
  FeatureRequestPage,
  FeatureRequestSort,
  FeedbackResult,
  FollowResult,
  ProposeResult,
  PublicAppConfig,
  SdkAppearance,
  UserProfile,
  VoteResult,
} from "./types.js";

/** SDK version, sent in feedback metadata. */
export const CLIENT_VERSION = "0.1.0";
/** Default budget of JSON requests. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Default budget of uploads. */
export const DEFAULT_UPLOAD_TIMEOUT_MS = 60_000;

/** How the user token travels on the feature-request listing. */
export type TokenTransport = "header" | "query" | "both";

/** Returns a human-verification token, or undefined to send none. */
export type VerificationTokenProvider = () => string | undefined | null | Promise<string | undefined | null>;

/** Options of {@link FeedbackClient}, merged once at construction. */
export interface FeedbackClientOptions {
  /** Root address of the API (without `/api/v1`); trailing slashes are stripped. */
  baseUrl: string;
  /** The application key, e.g. `app_demo`. */
  appKey: string;
  /** Platform reported on feedback. @default detected from the runtime (`web` in browsers, else `universal`) */
  defaultPlatform?: Platform | undefined;
  /** Budget of JSON requests, in ms. @default 15000 */
  timeoutMs?: number | undefined;
  /** Budget of uploads, in ms; a per-call `timeoutMs` overrides it. @default 60000 */
  uploadTimeoutMs?: number | undefined;
  /**
   * Called before every intake submission; its token goes into the body. Without one, apps whose
   * config requires `altcha` get a token from the built-in solver. @default undefined
   */
  verificationTokenProvider?: VerificationTokenProvider | undefined;
  /** User-token transport on the listing; `query` is deprecated. @default "header" */
  tokenTransport?: TokenTransport | undefined;
  /** Signs user attributes (wire-contract §5). Keep it out of public bundles. @default undefined */
  sdkSigningSecret?: string | undefined;
  /** The fetch implementation. @default globalThis.fetch */
  fetch?: FetchLike | undefined;
  /** Persists the user token and seen changelogs. @default in memory, with one development warning */
  storage?: StorageAdapter | undefined;
  /** A token store to share between clients. @default a store over `storage` */
  tokenStore?: UserTokenStore | undefined;
  /** An explicit user token; it wins over the token store. @default undefined */
  userToken?: string | undefined;
  /** `X-User-Hash` your backend computed for the token (or a function of the token). @default undefined */
  userHash?: string | ((token: string) => string | undefined | Promise<string | undefined>) | undefined;
  /**
   * Sign-in from the host app: the HS256 JWT your backend signed for the signed-in user (see
   * docs/sso.md), or a function answering the current one (called before every request, so it
   * can refresh an expiring token). Sent as `X-SSO-Token` on every request. Blank: none.
   * @default undefined
   */
  ssoToken?: string | (() => string | undefined | Promise<string | undefined>) | undefined;
  /** Clock and timers. @default the real ones */
  timers?: Timers | undefined;
  /** Development warnings. @default console.warn outside production */
  warn?: Warn | undefined;
}

/** Options every method takes. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Per-call budget in ms. */
  timeoutMs?: number | undefined;
}

/** Options of methods that act for a user. */
export interface UserCallOptions extends CallOptions {
  /** Use this token for the call instead of the client's. */
  userToken?: string | undefined;
}

/** The option of every method that POSTs. */
export interface IdempotentCallOptions {
  /**
   * Sent as `Idempotency-Key`: the server answers a repeat with the same key and body with its
   * first answer (header `Idempotent-Replayed: true`) instead of writing again. Use one fresh key
   * per submission (e.g. {@link uuidV4}) and the same key, with the same draft, for every retry of
   * it. Blank: no header. @default none
   */
  idempotencyKey?: string | undefined;
}

/** Options of the methods that POST for a user. */
export interface UserPostOptions extends UserCallOptions, IdempotentCallOptions {}

/** Options of {@link FeedbackClient.getUserProfile}. */
export interface UserProfileCallOptions extends CallOptions {
  /** Send the client's app key, so only users of this app resolve. @default true */
  withAppKey?: boolean | undefined;
}

export interface ListFeatureRequestsParams extends UserCallOptions {
  /** 1–200. @default 50 */
  limit?: number | undefined;
  offset?: number | undefined;
  /** Keyset cursor from `nextCursor`; the server ignores `offset` with it. */
  cursor?: string | undefined;
  /** Search text (paced by the server: 30 searches per minute per IP). */
  q?: string | undefined;
  versionId?: string | undefined;
  sort?: FeatureRequestSort | undefined;
}

/** A feature-request proposal. */
export interface FeatureRequestDraft {
  title: string;
  details?: string | undefined;
  requesterName?: string | undefined;
  requesterEmail?: string | undefined;
  /** Wins over `verificationTokenProvider`. */
  verificationToken?: string | undefined;
}

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
  /**
   * When the user submitted (ISO 8601), sent as `metadata.submittedAt`. Keep it when retrying
   * under the same idempotency key, so the body stays the same. @default now
   */
  submittedAt?: string | undefined;
  /** Wins over `verificationTokenProvider`. */
  verificationToken?: string | undefined;
}

/** A comment or reply to post; `parentId` makes it a reply in that thread. */
export interface CommentDraft {
  body: string;
  parentId?: string | undefined;
  authorName?: string | undefined;
  authorEmail?: string | undefined;
}

/** What {@link FeedbackClient.prepareChangelogOverlay} returns when there is something to show. */
export interface ChangelogOverlayData {
  entries: ChangelogEntry[];
  appearance: SdkAppearance | undefined;
  /** Key to mark seen on close: the newest entry's `versionLabel`, else its id. */
  latestKey: string;
}

const enc = encodeURIComponent;

function byPosition<T extends { position: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => a.position - b.position);
}

/** True when intake needs the server's own proof-of-work challenge solved. */
function requiresAltcha(verification: PublicAppConfig["verification"] | undefined): boolean {
  return verification?.required === true && verification.provider === "altcha";
}

function nonBlank(value: string | null | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** A copy of `value` without its undefined properties (exactOptionalPropertyTypes-friendly bodies). */
function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

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
  private readonly options: FeedbackClientOptions;
  private readonly send: Transport;
  /** Set by {@link FeedbackClient.setSsoToken}; wins over the option. */
  private ssoOverride: string | null | undefined;
  /** `verification` of the config last read: whether intake needs the built-in altcha. */
  private verification: PublicAppConfig["verification"] | undefined;
  /** Whether a config was read (older servers' configs name no `verification`). */
  private configRead = false;

  constructor(options: FeedbackClientOptions) {
    if (typeof options.baseUrl !== "string" || options.baseUrl.trim() === "") throw new TypeError("baseUrl is required");
    if (typeof options.appKey !== "string" || options.appKey.trim() === "") throw new TypeError("appKey is required");
    const fetchImpl = options.fetch ?? (globalThis.fetch === undefined ? undefined : (input: string, init: RequestInit) => globalThis.fetch(input, init));
    if (fetchImpl === undefined) throw new TypeError("No fetch in this runtime: pass options.fetch");
    this.options = options;
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
    const transport = createTransport({ baseUrl: this.baseUrl, fetch: fetchImpl, timers: this.timers });
    // Every exchange goes through here, so the signed-in user is never left off one.
    this.send = async <T>(request: HttpRequest) => {
      const sso = await this.currentSsoToken();
      return transport<T>(sso === undefined ? request : { ...request, headers: { ...request.headers, "X-SSO-Token": sso } });
    };
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
    this.ssoOverride = token;
  }

  private async currentSsoToken(): Promise<string | undefined> {
    if (this.ssoOverride === null) return undefined;
    if (this.ssoOverride !== undefined) return nonBlank(this.ssoOverride);
    const option = this.options.ssoToken;
    return nonBlank(typeof option === "function" ? await option() : option);
  }

  /** The token calls use: per call, else the explicit option, else the store's (awaited). */
  async getUserToken(override?: string): Promise<string> {
    return nonBlank(override) ?? nonBlank(this.options.userToken) ?? (await this.tokens.getToken());
  }

  /** `GET /public/config/<APP_KEY>`. Unknown and private apps: {@link UnexpectedStatusException} 404. */
  async getConfig(options: CallOptions = {}): Promise<PublicAppConfig> {
    const config = await this.json<PublicAppConfig>({ method: "GET", path: `/api/v1/public/config/${enc(this.appKey)}` }, options);
    this.verification = config.verification;
    this.configRead = true;
    return config;
  }

  /**
   * `GET /public/apps/<APP_KEY>/verification/challenge`: a fresh, single-use altcha challenge;
   * `solver: "js"` asks for the lighter one meant for runtimes without Web Crypto.
   */
  async getVerificationChallenge(options: CallOptions & { solver?: "js" | undefined } = {}): Promise<AltchaChallenge> {
    const query = options.solver === undefined ? "" : `?solver=${options.solver}`;
    return this.json<AltchaChallenge>({ method: "GET", path: `/api/v1/public/apps/${enc(this.appKey)}/verification/challenge${query}` }, options);
  }

  /**
   * The built-in verification provider: fetches a challenge, solves it (with Web Crypto, or in
   * plain JavaScript on runtimes without it, which get the lighter `solver=js` challenge) and
   * returns the single-use token for one intake submission. Used automatically when the app
   * requires `altcha` and no `verificationTokenProvider` is set; `signal` also stops the solving.
   */
  async createVerificationToken(options: CallOptions = {}): Promise<string> {
    const challenge = await this.getVerificationChallenge(hasWebCrypto() ? options : { ...options, solver: "js" });
    return encodeAltchaToken(challenge, await solveAltchaChallenge(challenge, { signal: options.signal, timers: this.timers }));
  }

  /** `GET /public/columns/<APP_KEY>`, sorted by position (hidden columns included). */
  async getColumns(options: UserCallOptions = {}): Promise<BoardColumn[]> {
    const data = await this.json<{ columns?: BoardColumn[] }>(
      { method: "GET", path: `/api/v1/public/columns/${enc(this.appKey)}`, headers: await this.identifiedHeaders(options) },
      options,
    );
    return byPosition(data.columns ?? []);
  }

  /** `GET /public/versions/<APP_KEY>`, sorted by position. */
  async getVersions(options: UserCallOptions = {}): Promise<AppVersion[]> {
    const data = await this.json<{ versions?: AppVersion[] }>(
      { method: "GET", path: `/api/v1/public/versions/${enc(this.appKey)}`, headers: await this.identifiedHeaders(options) },
      options,
    );
    return byPosition(data.versions ?? []);
  }

  /** `GET /feature-requests`: a page, personalised by the user token sent per `tokenTransport`. */
  async listFeatureRequests(params: ListFeatureRequestsParams = {}): Promise<FeatureRequestPage> {
    const token = await this.getUserToken(params.userToken);
    const transport = this.tokenTransport;
    const headers = await this.userHeaders(token);
    if (transport === "query") delete headers["X-User-Token"];
    const q = params.q?.trim();
    const data = await this.json<Partial<FeatureRequestPage>>(
      {
        method: "GET",
        path: "/api/v1/feature-requests",
        query: {
          appKey: this.appKey,
          limit: params.limit ?? 50,
          offset: params.cursor === undefined ? (params.offset ?? 0) : undefined,
          cursor: params.cursor,
          q: q === "" ? undefined : q,
          versionId: params.versionId,
          sort: params.sort,
          userToken: transport === "header" ? undefined : token,
        },
        headers,
      },
      params,
    );
    const requests = data.requests ?? [];
    const total = data.total ?? requests.length;
    return { requests, total, hasMore: data.hasMore ?? (params.offset ?? 0) + requests.length < total, nextCursor: data.nextCursor ?? null };
  }

  /**
   * `GET /feature-requests/<id>`: one request in the listing's shape, with the user's `hasVoted`
   * (their own request waiting for review included). `FeatureRequestNotFoundException` when the
   * listing would not show it.
   */
  async getFeatureRequest(id: string, options: UserCallOptions = {}): Promise<FeatureRequestItem> {
    const token = await this.getUserToken(options.userToken);
    return this.json<FeatureRequestItem>(
      { method: "GET", path: `/api/v1/feature-requests/${enc(id)}`, query: { appKey: this.appKey }, headers: await this.userHeaders(token) },
      options,
    );
  }

  /**
   * `GET /feature-requests/similar`: public requests like a title being typed, most similar first,
   * for a compose sheet to offer a vote instead of a duplicate. Spends the search budget (30 per
   * minute per IP): pace calls, e.g. with a `SearchPacer`. A blank title answers `[]` unasked.
   */
  async findSimilarFeatureRequests(title: string, options: UserCallOptions & { limit?: number | undefined } = {}): Promise<FeatureRequestItem[]> {
    const trimmed = title.trim();
    if (trimmed === "") return [];
    const token = await this.getUserToken(options.userToken);
    const data = await this.json<{ requests?: FeatureRequestItem[] }>(
      {
        method: "GET",
        path: "/api/v1/feature-requests/similar",
        query: { appKey: this.appKey, title: trimmed.slice(0, 400), limit: options.limit },
        headers: await this.userHeaders(token),
      },
      options,
    );
    return data.requests ?? [];
  }

  /** `POST /feature-requests`: proposes a request (human verification, quota and subscription apply). */
  async submitFeatureRequest(draft: FeatureRequestDraft, options: UserPostOptions = {}): Promise<ProposeResult> {
    const token = await this.getUserToken(options.userToken);
    const body = compact({
      appKey: this.appKey,
      title: draft.title.trim(),
      description: (draft.details ?? "").trim(),
      requesterName: nonBlank(draft.requesterName?.trim()),
      requesterEmail: nonBlank(draft.requesterEmail?.trim()),
      requesterToken: token,
    });
    return this.intake<ProposeResult>("/api/v1/feature-requests", body, draft.verificationToken, await this.userHeaders(token), options);
  }

  /** `POST /feature-requests/<id>/vote`: toggles the user's vote. */
  async toggleVote(id: string, options: UserPostOptions & { shipNotifyEmail?: string | undefined } = {}): Promise<VoteResult> {
    return this.vote("POST", id, options);
  }

  /** `DELETE /feature-requests/<id>/vote`: removes the user's vote (idempotent). */
  async removeVote(id: string, options: UserCallOptions = {}): Promise<VoteResult> {
    return this.vote("DELETE", id, options);
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
  async followFeatureRequest(id: string, options: UserPostOptions & { email?: string | undefined } = {}): Promise<FollowResult> {
    return this.follow("POST", id, options);
  }

  /** `DELETE /feature-requests/<id>/subscription`: stops following (idempotent). */
  async unfollowFeatureRequest(id: string, options: UserCallOptions & { email?: string | undefined } = {}): Promise<FollowResult> {
    return this.follow("DELETE", id, options);
  }

  /** `GET /feature-requests/<id>/comments`, oldest first. */
  async listComments(id: string, options: UserCallOptions & { limit?: number | undefined; cursor?: string | undefined } = {}): Promise<CommentPage> {
    const data = await this.json<Partial<CommentPage>>(
      {
        method: "GET",
        path: `/api/v1/feature-requests/${enc(id)}/comments`,
        query: { limit: options.limit, cursor: options.cursor },
        headers: await this.identifiedHeaders(options),
      },
      options,
    );
    const comments = data.comments ?? [];
    return { comments, total: data.total ?? comments.length, hasMore: data.hasMore ?? false, nextCursor: data.nextCursor ?? null };
  }

  /** `POST /feature-requests/<id>/comments`: a comment, or a reply with `parentId`. */
  async postComment(id: string, draft: CommentDraft, options: UserPostOptions = {}): Promise<Comment> {
    const token = await this.getUserToken(options.userToken);
    const body = compact({
      body: draft.body.trim(),
      parentId: draft.parentId,
      authorName: nonBlank(draft.authorName?.trim()),
      authorEmail: nonBlank(draft.authorEmail?.trim()),
    });
    return this.json<Comment>(
      { method: "POST", path: `/api/v1/feature-requests/${enc(id)}/comments`, json: body, headers: await this.userHeaders(token) },
      options,
    );
  }

  /**
   * `POST /feedback`. Sends the draft's platform or the default one without checking the
   * allowlist (composers use {@link resolveSubmissionPlatform}); uploads pending attachments first
   * (an `idempotencyKey` covers the feedback itself, not those uploads: upload first, then retry
   * with descriptors, to make the whole submission safe to repeat).
   */
  async submitFeedback(draft: FeedbackDraft, options: UserPostOptions = {}): Promise<FeedbackResult> {
    const token = await this.getUserToken(options.userToken);
    const attachments: AttachmentDescriptor[] = [];
    for (const picked of draft.attachments ?? []) {
      const normalized = normalizePickedAttachment(picked);
      attachments.push(
        normalized.type === "descriptor"
          ? normalized.descriptor
          : await this.uploadAttachment({ ...normalized.request, signal: normalized.request.signal ?? options.signal }, { userToken: token }),
      );
    }
    const platform = draft.platform ?? this.defaultPlatform;
    const body = compact({
      appKey: this.appKey,
      title: draft.title.trim(),
      description: draft.details.trim(),
      platform,
      reporterName: nonBlank(draft.reporterName?.trim()),
      reporterEmail: nonBlank(draft.reporterEmail?.trim()),
      appVersion: draft.appVersion,
      buildNumber: draft.buildNumber,
      // SDK keys override the host's.
      metadata: {
        ...draft.metadata,
        sdk: `tidings-client/${CLIENT_VERSION}`,
        platform,
        submittedAt: nonBlank(draft.submittedAt) ?? new Date(this.timers.now()).toISOString(),
      },
      attachments,
    });
    return this.intake<FeedbackResult>("/api/v1/feedback", body, draft.verificationToken, await this.userHeaders(token), options);
  }

  /**
   * Uploads a file as multipart `appKey` + `file`: images (by mime type or `preferredKind:
   * "image"`) to `/uploads/images`, others to `/uploads/objects`, within `uploadTimeoutMs`.
   */
  async uploadAttachment(request: UploadRequest, options: { userToken?: string | undefined } & IdempotentCallOptions = {}): Promise<AttachmentDescriptor> {
    const image = isImageUpload(request);
    const form = new FormData();
    form.append("appKey", this.appKey);
    const file = request.file;
    if (typeof file === "string" || (typeof file === "object" && "uri" in file && typeof file.uri === "string")) {
      // React Native's FormData takes {uri, name, type} file references.
      const ref = typeof file === "string" ? { uri: file } : file;
      form.append("file", { uri: ref.uri, name: ref.name ?? request.filename, type: ref.type ?? request.mimeType } as unknown as Blob);
    } else {
      const blob = file instanceof Blob ? file : new Blob([file as BlobPart], { type: request.mimeType });
      form.append("file", blob, request.filename);
    }
    const token = await this.getUserToken(options.userToken);
    const { data } = await this.send<Record<string, unknown>>({
      method: "POST",
      path: image ? "/api/v1/uploads/images" : "/api/v1/uploads/objects",
      form,
      headers: { ...(await this.userHeaders(token)), "Idempotency-Key": nonBlank(options.idempotencyKey) },
      signal: request.signal,
      timeoutMs: request.timeoutMs ?? this.uploadTimeoutMs,
      allowEmptyBody: false,
    });
    const str = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
    const key = str(data.key) ?? str(data.id) ?? str(data.uploadId);
    if (key === undefined) throw new InvalidResponseException("The upload answer names no stored object", { rawBody: JSON.stringify(data) });
    const descriptor: AttachmentDescriptor = {
      kind: str(data.kind) ?? request.preferredKind ?? (image ? "image" : "file"),
      key,
      url: str(data.url) ?? "",
      filename: str(data.filename) ?? request.filename,
      mimeType: str(data.mimeType) ?? request.mimeType,
    };
    if (typeof data.size === "number") descriptor.size = data.size;
    const uploadId = str(data.uploadId);
    if (uploadId !== undefined) descriptor.uploadId = uploadId;
    return descriptor;
  }

  /** `GET /public/apps/<APP_KEY>/changelog`, newest first. */
  async getChangelog(options: UserCallOptions & { limit?: number | undefined; cursor?: string | undefined } = {}): Promise<ChangelogPage> {
    const data = await this.json<Partial<ChangelogPage>>(
      {
        method: "GET",
        path: `/api/v1/public/apps/${enc(this.appKey)}/changelog`,
        query: { limit: options.limit, cursor: options.cursor },
        headers: await this.identifiedHeaders(options),
      },
      options,
    );
    const entries = [...(data.entries ?? [])].sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt));
    return { entries, hasMore: data.hasMore ?? false, nextCursor: data.nextCursor ?? null };
  }

  /** `POST /public/apps/<APP_KEY>/changelog/subscribe` (double opt-in: the address gets a confirmation mail). */
  async subscribeToChangelog(email: string, options: UserPostOptions = {}): Promise<{ subscribed: boolean }> {
    const token = await this.getUserToken(options.userToken);
    const data = await this.json<{ subscribed?: boolean; success?: boolean }>(
      {
        method: "POST",
        path: `/api/v1/public/apps/${enc(this.appKey)}/changelog/subscribe`,
        json: { email: email.trim() },
        headers: await this.userHeaders(token),
      },
      options,
    );
    return { subscribed: data.subscribed ?? data.success ?? true };
  }

  /** `POST /public/apps/<APP_KEY>/changelog/unsubscribe` with the address, or `{token}` from an email link. */
  async unsubscribeFromChangelog(
    emailOrToken: string | { token: string },
    options: CallOptions & IdempotentCallOptions = {},
  ): Promise<{ unsubscribed: boolean }> {
    const json = typeof emailOrToken === "string" ? { email: emailOrToken.trim() } : { token: emailOrToken.token };
    const data = await this.json<{ unsubscribed?: boolean }>(
      { method: "POST", path: `/api/v1/public/apps/${enc(this.appKey)}/changelog/unsubscribe`, json },
      options,
    );
    return { unsubscribed: data.unsubscribed ?? true };
  }

  /**
   * `PUT /public/apps/<APP_KEY>/user`: reports paying status, plan, MRR and currency, signed with
   * `sdkSigningSecret` (HMAC-SHA256, `cpt-user-attrs-v1`) when one is configured.
   */
  async reportUserAttributes(attributes: UserAttributes, options: UserCallOptions = {}): Promise<{ ok: boolean; updatedAt?: string }> {
    const token = await this.getUserToken(options.userToken);
    const clean = compact({
      isPaying: attributes.isPaying,
      plan: typeof attributes.plan === "string" ? attributes.plan.trim() : attributes.plan,
      mrr: attributes.mrr,
      currency: attributes.currency?.trim(),
    }) as UserAttributes;
    const secret = this.options.sdkSigningSecret;
    const signed =
      secret === undefined || Object.keys(clean).length === 0
        ? {}
        : await signUserAttributes({
            secret,
            appKey: this.appKey,
            userToken: token,
            attributes: clean,
            timestamp: Math.floor(this.timers.now() / 1000),
          });
    return this.json<{ ok: boolean; updatedAt?: string }>(
      { method: "PUT", path: `/api/v1/public/apps/${enc(this.appKey)}/user`, json: { ...clean, ...signed }, headers: await this.userHeaders(token) },
      options,
    );
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
  async getUserProfile(userId: string, options: UserProfileCallOptions = {}): Promise<UserProfile> {
    const query = options.withAppKey === false ? {} : { appKey: this.appKey };
    return this.json<UserProfile>({ method: "GET", path: `/api/v1/users/${enc(userId)}/profile`, query }, options);
  }

  /**
   * Rule 8: fetches the config and the changelog; null when the changelog flag is off, there is
   * nothing, or (with `onlyIfUnseen`) the newest release is already seen.
   */
  async prepareChangelogOverlay(options: CallOptions & { onlyIfUnseen?: boolean } = {}): Promise<ChangelogOverlayData | null> {
    const config = await this.getConfig(options);
    if (config.sdk?.features?.changelog === false) return null;
    const count = Math.min(10, Math.max(1, Math.trunc(config.sdk?.changelogOverlay?.entryCount ?? 3)));
    const { entries } = await this.getChangelog({ ...options, limit: count });
    const shown = entries.slice(0, count);
    const newest = shown[0];
    if (newest === undefined) return null;
    const latestKey = nonBlank(newest.versionLabel) ?? newest.id;
    if (options.onlyIfUnseen === true && (await this.seenChangelogs.hasSeen(latestKey))) return null;
    return { entries: shown, appearance: config.sdk, latestKey };
  }

  /** One JSON exchange; a POST carries the caller's `Idempotency-Key`. */
  private async json<T>(request: Omit<HttpRequest, "timeoutMs" | "signal">, options: CallOptions & IdempotentCallOptions): Promise<T> {
    const key = request.method === "POST" ? nonBlank(options.idempotencyKey) : undefined;
    const headers = key === undefined ? request.headers : { ...request.headers, "Idempotency-Key": key };
    const { data } = await this.send<T>({ ...request, headers, signal: options.signal, timeoutMs: options.timeoutMs ?? this.timeoutMs });
    return data;
  }

  private async follow(method: "POST" | "DELETE", id: string, options: UserPostOptions & { email?: string | undefined }): Promise<FollowResult> {
    const token = await this.getUserToken(options.userToken);
    return this.json<FollowResult>(
      { method, path: `/api/v1/feature-requests/${enc(id)}/subscription`, json: compact({ email: nonBlank(options.email)?.trim() }), headers: await this.userHeaders(token) },
      options,
    );
  }

  private async vote(method: "POST" | "DELETE", id: string, options: UserPostOptions & { shipNotifyEmail?: string | undefined }): Promise<VoteResult> {
    const token = await this.getUserToken(options.userToken);
    return this.json<VoteResult>(
      {
        method,
        path: `/api/v1/feature-requests/${enc(id)}/vote`,
        json: compact({ appKey: this.appKey, shipNotifyEmail: options.shipNotifyEmail }),
        headers: await this.userHeaders(token),
      },
      options,
    );
  }

  /**
   * Posts an intake body with a verification token: the draft's, else the provider's (blank: the
   * field is omitted). Without a provider the built-in altcha steps in when the config last read
   * requires it; when a submission is refused for verification, the config is read again and a
   * token-less one is sent once more with a solved challenge (a refused submission wrote nothing).
   * Under an idempotency key the config is read first when it has not been, so the key's first
   * answer is not that refusal.
   */
  private async intake<T>(
    path: string,
    body: object,
    draftToken: string | undefined,
    headers: Record<string, string>,
    options: CallOptions & IdempotentCallOptions,
  ): Promise<T> {
    const post = (verificationToken: string | undefined) =>
      this.json<T>({ method: "POST", path, json: compact({ ...body, verificationToken }), headers }, options);
    const provider = this.options.verificationTokenProvider;
    const given = nonBlank(draftToken) ?? (provider === undefined ? undefined : nonBlank(await provider()));
    if (given !== undefined || provider !== undefined) return post(given);
    if (!this.configRead && nonBlank(options.idempotencyKey) !== undefined) {
      await this.getConfig(options).catch((configError: unknown) => {
        // Unreachable now means the submission would be too; any other answer leaves it to the POST.
        if (isAbortError(configError) || configError instanceof NetworkException || configError instanceof RequestTimeoutException) throw configError;
      });
    }
    const builtIn = requiresAltcha(this.verification) && !(await this.verifiedAsIdentified(headers)) ? await this.createVerificationToken(options) : undefined;
    try {
      return await post(builtIn);
    } catch (error) {
      if (!(error instanceof VerificationRequiredException)) throw error;
      const config = await this.getConfig(options).catch((configError: unknown) => {
        if (isAbortError(configError)) throw configError;
        return undefined;
      });
      if (builtIn !== undefined || !requiresAltcha(config?.verification)) throw error;
      return post(await this.createVerificationToken(options));
    }
  }

  /**
   * True when the config last read says the app counts identified users as verified and this call
   * identifies its user (`X-User-Hash`, or an SSO token): the server then needs no token, and a
   * phone is spared the proof of work.
   */
  private async verifiedAsIdentified(headers: Record<string, string>): Promise<boolean> {
    if (this.verification?.trustIdentifiedUsers !== true) return false;
    return headers["X-User-Hash"] !== undefined || (await this.currentSsoToken()) !== undefined;
  }

  private async userHeaders(token: string): Promise<Record<string, string>> {
    const headers: Record<string, string> = { "X-User-Token": token };
    const hash = this.options.userHash;
    const value = typeof hash === "function" ? await hash(token) : hash;
    if (nonBlank(value) !== undefined) headers["X-User-Hash"] = value!;
    return headers;
  }

  /**
   * Reads send the user's identity only when the host vouches for it with a hash: that opens
   * surfaces closed to anonymous users, and anonymous reads stay shareable by caches.
   */
  private async identifiedHeaders(options: UserCallOptions): Promise<Record<string, string> | undefined> {
    if (this.options.userHash === undefined && options.userToken === undefined) return undefined;
    return this.userHeaders(await this.getUserToken(options.userToken));
  }
}
