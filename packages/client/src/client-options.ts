import type { Platform } from "./platform.js";
import type { FetchLike } from "./request.js";
import type { StorageAdapter, Warn } from "./storage.js";
import type { Timers } from "./timers.js";
import type { UserTokenStore } from "./token-store.js";

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
